import Foundation

/// A caption file added to a finished title: what the master says of it.
public struct CaptionEntry: Sendable, Equatable {
    public var id: Int64
    /// The RFC 5646 language tag.
    public var language: String
    /// The NAME in the master, unique among the title's subtitles (see `CaptionRendition.name`).
    public var name: String
    public var isDefault: Bool

    public init(id: Int64, language: String, name: String, isDefault: Bool) {
        self.id = id
        self.language = language
        self.name = name
        self.isDefault = isDefault
    }
}

/// Adds uploaded captions to a finished title without transcoding it again: each caption becomes a WebVTT
/// rendition in `captions_<id>/`, cut on the title's segment boundaries, and the master is rewritten from the
/// transcoder's original (kept as `master.m3u8.transcoded`) with one `#EXT-X-MEDIA` line per caption.
public enum CaptionRendition {
    /// The transcoder's master, kept once captions change the served one; not named `.m3u8`, so that the
    /// title's folder still has one master playlist.
    static let baseMaster = "master.m3u8.transcoded"

    /// The folder of caption `id` inside the title's folder.
    public static func folder(id: Int64) -> String { AlternateRendition.folder(.captions, Int(id)) }

    /// The complete WebVTT file of caption `id`, relative to the title's folder.
    public static func completeFile(id: Int64) -> String { "\(folder(id: id))/\(WebVTTWriter.completeFile)" }

    /// The media playlist of caption `id`, relative to the title's folder.
    public static func playlist(id: Int64) -> String { "\(folder(id: id))/\(PlaylistWriter.mediaPlaylist)" }

    /// Writes caption `id`'s segments, complete file and media playlist into `title`'s folder, on the
    /// segment boundaries of the master's first variant, replacing an earlier folder of the same id.
    public static func write(_ file: CaptionFile, id: Int64, title: URL) throws {
        let reference = try referencePlaylist(in: title)
        let staging = title.appendingPathComponent(".\(folder(id: id)).tmp-\(UUID().uuidString)")
        do {
            let segments = try WebVTTWriter.write(file.cues, videoSegments: reference.segments, to: staging)
            try PlaylistWriter.media(segments, targetDuration: reference.targetDuration)
                .write(to: staging.appendingPathComponent(PlaylistWriter.mediaPlaylist), atomically: false, encoding: .utf8)
            let destination = title.appendingPathComponent(folder(id: id))
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: staging, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    /// Removes caption `id`'s folder.
    public static func remove(id: Int64, title: URL) throws {
        let folder = title.appendingPathComponent(folder(id: id))
        if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
    }

    /// Rewrites the title's master for `captions`, atomically: players read the old master or the new one,
    /// never a part of either.
    public static func publishMaster(of title: URL, captions: [CaptionEntry]) throws {
        let master = title.appendingPathComponent(PlaylistWriter.masterPlaylist)
        let base = title.appendingPathComponent(baseMaster)
        if !FileManager.default.fileExists(atPath: base.path) {
            try FileManager.default.copyItem(at: master, to: base)
        }
        try PlaylistSet.replace(master, with: masterText(base: try String(contentsOf: base, encoding: .utf8), captions: captions))
    }

    /// The transcoder's master with the captions' `#EXT-X-MEDIA` lines after its own, every variant naming the
    /// subtitles group, and the source's subtitles no longer default when a caption is.
    static func masterText(base: String, captions: [CaptionEntry]) -> String {
        guard !captions.isEmpty else { return base }
        var lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let subtitles = lines.indices.filter { lines[$0].hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
        if captions.contains(where: \.isDefault) {
            for index in subtitles { lines[index] = lines[index].replacingOccurrences(of: "DEFAULT=YES", with: "DEFAULT=NO") }
        }
        let media = captions.map { caption in
            PlaylistWriter.media(AlternateRendition(kind: .captions, index: Int(caption.id), name: caption.name, language: caption.language,
                                                    isDefault: caption.isDefault, group: PlaylistWriter.subtitlesGroup))
        }
        let attribute = "SUBTITLES=\"\(PlaylistWriter.subtitlesGroup)\""
        for index in lines.indices where lines[index].hasPrefix("#EXT-X-STREAM-INF:") && !lines[index].contains("SUBTITLES=") {
            lines[index] += ",\(attribute)"
        }
        let after = lines.lastIndex { $0.hasPrefix("#EXT-X-MEDIA:") } ?? lines.lastIndex { $0 == "#EXT-X-INDEPENDENT-SEGMENTS" } ?? 0
        lines.insert(contentsOf: media, at: after + 1)
        return lines.joined(separator: "\n")
    }

    /// The NAME for a new caption: `requested`, else the language in its own words, numbered when the title's
    /// own subtitles or `captions` already have it ("English 2").
    public static func name(_ requested: String?, language: String, title: URL, captions: [CaptionEntry]) throws -> String {
        let base = title.appendingPathComponent(baseMaster)
        let master = FileManager.default.fileExists(atPath: base.path) ? base : title.appendingPathComponent(PlaylistWriter.masterPlaylist)
        let taken = try String(contentsOf: master, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }.compactMap { name(in: String($0)) } + captions.map(\.name)
        let wanted = TrackName.name(title: requested, language: language, fallback: "Captions")
        var candidate = wanted
        var number = 1
        while taken.contains(candidate) {
            number += 1
            candidate = "\(wanted) \(number)"
        }
        return candidate
    }

    /// The NAME attribute of an `#EXT-X-MEDIA` line.
    private static func name(in line: String) -> String? {
        guard let start = line.range(of: "NAME=\"") else { return nil }
        return line[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    /// The segments and target duration of the master's first variant, which every rendition is cut like.
    private static func referencePlaylist(in title: URL) throws -> (segments: [Segment], targetDuration: Int) {
        let master = try String(contentsOf: title.appendingPathComponent(PlaylistWriter.masterPlaylist), encoding: .utf8)
        let lines = master.split(separator: "\n").map(String.init)
        guard let variant = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }), variant + 1 < lines.count else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: title.path])
        }
        let media = try String(contentsOf: title.appendingPathComponent(lines[variant + 1]), encoding: .utf8)
        var segments: [Segment] = []
        var target = 1
        var start = 0.0
        for line in media.split(separator: "\n") {
            if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                target = Int(line.dropFirst("#EXT-X-TARGETDURATION:".count)) ?? target
            } else if line.hasPrefix("#EXTINF:"), let duration = Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," }) {
                segments.append(Segment(fileName: "", start: start, duration: duration, bytes: 0))
                start += duration
            }
        }
        return (segments, target)
    }
}
