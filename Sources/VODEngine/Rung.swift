import Foundation

/// One step of a bitrate ladder as configured: a name, a nominal landscape size and a video bitrate.
///
/// The size's short side is what "720p" means: a portrait source gets the same rung turned on its side.
public struct Rung: Sendable, Hashable, Codable {
    /// The folder and playlist name of the rendition, such as `720p`.
    public var name: String
    /// The nominal width for a landscape source.
    public var width: Int
    /// The nominal height for a landscape source; also the rung's short side.
    public var height: Int
    /// The target video bitrate in bits per second.
    public var bitrate: Int

    public init(name: String, width: Int, height: Int, bitrate: Int) {
        self.name = name
        self.width = width
        self.height = height
        self.bitrate = bitrate
    }

    /// The short side of the nominal size.
    public var shortSide: Int { min(width, height) }

    /// The ladder of the client spec: 720p at 800 kb/s, 1080p at 2.8 Mb/s and 4k at 5 Mb/s.
    public static let defaultLadder: [Rung] = [
        Rung(name: "720p", width: 1280, height: 720, bitrate: 800_000),
        Rung(name: "1080p", width: 1920, height: 1080, bitrate: 2_800_000),
        Rung(name: "4k", width: 3840, height: 2160, bitrate: 5_000_000),
    ]
}

extension Rung {
    /// Parses `NAME:WIDTHxHEIGHT@BITRATE`, where the bitrate may end in `k` or `M`, such as `720p:1280x720@800k`.
    public init?(specification: String) {
        let nameAndRest = specification.split(separator: ":", maxSplits: 1)
        guard nameAndRest.count == 2, !nameAndRest[0].isEmpty else { return nil }
        let sizeAndRate = nameAndRest[1].split(separator: "@")
        guard sizeAndRate.count == 2 else { return nil }
        let size = sizeAndRate[0].lowercased().split(separator: "x")
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), width > 0, height > 0,
            let bitrate = Rung.parseBitrate(String(sizeAndRate[1]))
        else { return nil }
        self.init(name: String(nameAndRest[0]), width: width, height: height, bitrate: bitrate)
    }

    /// The bitrates a rung may have: below 32 kb/s its VBV cap, less MPEG-TS's overhead, is nothing; above
    /// 500 Mb/s its 2 s buffer does not fit the encoder's 32-bit field (2500M stopped the process).
    public static let bitrates = 32_000...500_000_000

    /// Why `ladder` cannot be encoded, in words, or nil. A rung's name is the folder and the URI of its rendition
    /// inside the title's: letters, digits, `_` and `-`, starting with a letter or digit, at most 32 characters
    /// (`../x` wrote outside the title, `master.m3u8` over its master), and none of the title's own folders
    /// (`stills`, `faststart`, `audio_N`, `subtitles_N`) or twins' names (`NAME-hevc`, `NAME-hdr`). Names differ
    /// in more than case (two rungs named alike shared one folder), and every bitrate is within `bitrates`.
    public static func problem(with ladder: [Rung]) -> String? {
        var seen: Set<String> = []
        for rung in ladder {
            let name = rung.name
            let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
            guard allowed, (1...32).contains(name.count), name.first.map({ $0 != "_" && $0 != "-" }) == true else {
                return "rung name '\(name)' must be 1 to 32 letters, digits, '_' or '-', starting with a letter or digit"
            }
            let lower = name.lowercased()
            if [StillsManifest.folder, TranscodeJob.fastStartFolder].contains(lower) || lower.hasPrefix("audio_")
                || lower.hasPrefix("subtitles_") || lower.hasSuffix("-hevc") || lower.hasSuffix("-hdr") {
                return "rung name '\(name)' is taken by the title's own files (stills, faststart, audio_N, subtitles_N, NAME-hevc, NAME-hdr)"
            }
            guard seen.insert(lower).inserted else { return "two rungs are named '\(name)'" }
            guard bitrates.contains(rung.bitrate) else {
                return "rung '\(name)' has a bitrate of \(rung.bitrate) b/s; use 32k to 500M"
            }
        }
        return nil
    }

    /// Parses a bitrate such as `800k`, `2.8M` or `800000` into bits per second.
    public static func parseBitrate(_ text: String) -> Int? {
        let lower = text.lowercased()
        let multiplier: Double = lower.hasSuffix("m") ? 1_000_000 : lower.hasSuffix("k") ? 1000 : 1
        let digits = multiplier == 1 ? lower : String(lower.dropLast())
        guard let value = Double(digits), value > 0, value * multiplier < 1e15 else { return nil }
        return Int((value * multiplier).rounded())
    }
}
