import Foundation

/// The video renditions of a finished title folder, read back from its playlists: which rungs there are, how
/// large, and which segment covers which time. Pictures for stills are taken from these renditions, which are
/// already SDR, deinterlaced and upright.
struct RenditionIndex: Sendable {
    /// One video rendition: its folder, picture size (square pixels), segments in order and the times of its
    /// keyframes on the title's timeline.
    struct Rendition: Sendable, Equatable {
        var folder: URL
        var width: Int
        var height: Int
        var segments: [SegmentEntry]
        var keyframes: [Double]

        /// The rendition's duration: the end of its last segment.
        var duration: Double { segments.last.map { $0.start + $0.duration } ?? 0 }

        /// The segment that shows `time` seconds into the title: the last one starting at or before it.
        func segment(at time: Double) -> SegmentEntry? {
            segments.last { $0.start <= time + 1e-6 } ?? segments.first
        }
    }

    /// One segment: its path, the path of the init segment it follows (fMP4), and its place on the title's timeline.
    struct SegmentEntry: Sendable, Equatable {
        var path: String
        var initPath: String? = nil
        var start: Double
        var duration: Double
    }

    /// The video renditions, smallest first; empty for an audio-only title.
    let renditions: [Rendition]

    /// Reads `master.m3u8` in `folder` and the media playlist of each SDR variant with a `RESOLUTION`: stills are
    /// SDR JPEGs, which an HDR rung's PQ or HLG pictures would make grey and washed out.
    init(folder: URL) throws {
        let master = try String(contentsOf: folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
        var seen = Set<String>()
        var found: [Rendition] = []
        let lines = master.split(whereSeparator: \.isNewline).map(String.init)
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXT-X-STREAM-INF:") && index + 1 < lines.count {
            let uri = lines[index + 1]
            guard let size = Self.resolution(line), !Self.isHDR(line), !uri.hasPrefix("#"), !uri.contains(".."),
                  seen.insert(uri).inserted else { continue }
            let playlist = folder.appendingPathComponent(uri)
            let text = try String(contentsOf: playlist, encoding: .utf8)
            let rendition = playlist.deletingLastPathComponent()
            let segments = Self.segments(text, in: rendition)
            found.append(Rendition(folder: rendition, width: size.width, height: size.height, segments: segments,
                                   keyframes: Self.keyframes(in: rendition, segments: segments)))
        }
        renditions = found.filter { !$0.segments.isEmpty }.sorted { $0.width * $0.height < $1.width * $1.height }
    }

    /// The smallest rendition at least `width` wide, else the largest: enough pixels without decoding more.
    func rendition(atLeast width: Int) -> Rendition? {
        renditions.first { $0.width >= width } ?? renditions.last
    }

    /// Whether a variant line says its rung is HDR (`VIDEO-RANGE=PQ` or `HLG`).
    static func isHDR(_ line: String) -> Bool {
        line.contains("VIDEO-RANGE=PQ") || line.contains("VIDEO-RANGE=HLG")
    }

    /// The `RESOLUTION=WxH` attribute of a variant line.
    static func resolution(_ line: String) -> (width: Int, height: Int)? {
        guard let range = line.range(of: "RESOLUTION=") else { return nil }
        let value = line[range.upperBound...].prefix { $0 != "," }
        let parts = value.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The segments a media playlist lists, each starting where the previous one ends, each with the init segment
    /// the `#EXT-X-MAP` before it names.
    static func segments(_ playlist: String, in folder: URL) -> [SegmentEntry] {
        var segments: [SegmentEntry] = []
        var pending: Double?
        var start = 0.0
        var initPath: String?
        for line in playlist.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#EXT-X-MAP:URI=\""), let uri = line.dropFirst("#EXT-X-MAP:URI=\"".count).split(separator: "\"").first,
               !uri.contains("/") {
                initPath = folder.appendingPathComponent(String(uri)).path
            } else if line.hasPrefix("#EXTINF:") {
                pending = Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," })
            } else if !line.hasPrefix("#"), let duration = pending, !line.contains("/") {
                segments.append(SegmentEntry(path: folder.appendingPathComponent(String(line)).path, initPath: initPath,
                                             start: start, duration: duration))
                start += duration
                pending = nil
            }
        }
        return segments
    }
}
