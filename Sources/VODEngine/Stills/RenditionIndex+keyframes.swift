import Foundation

extension RenditionIndex {
    /// The times of a rendition's keyframes, read from its I-frame playlist (`iframes.m3u8`, one entry per IDR
    /// picture, each lasting until the next); the segment starts, which are keyframes too, when it has none.
    static func keyframes(in folder: URL, segments: [SegmentEntry]) -> [Double] {
        let url = folder.appendingPathComponent(PlaylistWriter.iFramePlaylist)
        let times = (try? String(contentsOf: url, encoding: .utf8)).map(keyframes) ?? []
        return times.isEmpty ? segments.map(\.start) : times
    }

    /// The start of each `#EXTINF` entry of an I-frame playlist, each starting where the previous one ends.
    static func keyframes(_ iFramePlaylist: String) -> [Double] {
        var times: [Double] = []
        var start = 0.0
        for line in iFramePlaylist.split(whereSeparator: \.isNewline) where line.hasPrefix("#EXTINF:") {
            guard let duration = Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," }) else { continue }
            times.append(start)
            start += duration
        }
        return times
    }
}
