import Foundation

/// What ffprobe reports about one TS segment: the first video packet and the time span of each stream.
public struct SegmentProbe: Sendable {
    public var firstVideoIsKeyframe: Bool
    public var firstVideoPTS: Double
    public var videoEnd: Double
    public var audioEnd: Double?
    public var profile: String?
    public var level: Int?
    public var width: Int?
    public var height: Int?

    /// Probes the segment at `path` with ffprobe.
    public init(path: String) async throws {
        let packets = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-show_entries", "packet=codec_type,pts_time,duration_time,flags", "-of", "csv=p=0", path,
        ]).standardOutput.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let video = packets.filter { $0.first == "video" }
        let audio = packets.filter { $0.first == "audio" }
        guard let first = video.first else { throw ToolError(description: "\(path) has no video packets") }
        firstVideoIsKeyframe = first[3].hasPrefix("K")
        firstVideoPTS = Double(first[1]) ?? .nan
        videoEnd = video.map { (Double($0[1]) ?? 0) + (Double($0[2]) ?? 0) }.max() ?? 0
        audioEnd = audio.isEmpty ? nil : audio.map { (Double($0[1]) ?? 0) + (Double($0[2]) ?? 0) }.max()
        let streams = try await IndependentPlayers.streams(at: path).first { $0.codec_type == "video" }
        profile = streams?.profile
        level = streams?.level
        width = streams?.width
        height = streams?.height
    }
}

/// A master playlist's variants, read with a deliberately simple parser independent of the product's.
public struct MasterPlaylistText: Sendable {
    public struct Variant: Sendable {
        public var attributes: [String: String]
        public var uri: String
    }

    public var lines: [String]
    public var variants: [Variant]

    public init(contentsOf url: URL) throws {
        lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        variants = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXT-X-STREAM-INF:") && index + 1 < lines.count {
            variants.append(Variant(attributes: Self.attributes(of: line), uri: lines[index + 1]))
        }
    }

    /// The attributes of a tag line, with quotes removed from quoted values.
    public static func attributes(of line: String) -> [String: String] {
        let list = line.drop { $0 != ":" }.dropFirst()
        var result: [String: String] = [:]
        var key = "", value = "", inKey = true, quoted = false
        for character in list + "," {
            if inKey {
                if character == "=" { inKey = false } else { key.append(character) }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                result[key] = value
                key = ""
                value = ""
                inKey = true
            } else {
                value.append(character)
            }
        }
        return result
    }
}

/// A media playlist's segment URIs and EXTINF durations.
public struct MediaPlaylistText: Sendable {
    public var targetDuration: Int
    public var segments: [(uri: String, duration: Double)]

    public init(contentsOf url: URL) throws {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        targetDuration = lines.first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }.flatMap { Int($0.dropFirst(22)) } ?? -1
        segments = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") && index + 1 < lines.count {
            let duration = Double(line.dropFirst(8).prefix { $0 != "," }) ?? .nan
            segments.append((lines[index + 1], duration))
        }
    }
}
