import Foundation

/// Writes the text of HLS master, media and I-frame playlists (RFC 8216).
enum PlaylistWriter {
    /// The media playlist file name inside each rung folder.
    static let mediaPlaylist = "index.m3u8"
    /// The I-frame playlist file name inside each rung folder.
    static let iFramePlaylist = "iframes.m3u8"
    /// The master playlist file name.
    static let masterPlaylist = "master.m3u8"

    /// The target duration shared by every rendition: the longest segment, rounded half up.
    static func targetDuration(of renditions: [Rendition]) -> Int {
        let longest = renditions.flatMap(\.segments).map { Int(($0.duration + 0.5).rounded(.down)) }.max() ?? 1
        return max(longest, 1)
    }

    /// A VOD media playlist listing every segment.
    static func media(_ rendition: Rendition, targetDuration: Int) -> String {
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:3",
            "#EXT-X-TARGETDURATION:\(targetDuration)",
            "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-INDEPENDENT-SEGMENTS",
        ]
        for segment in rendition.segments {
            lines.append("#EXTINF:\(decimal(segment.duration)),")
            lines.append(segment.fileName)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// An I-frames-only playlist whose entries are byte ranges of the IDR pictures in the segments.
    static func iFrames(_ rendition: Rendition) -> String {
        let longest = rendition.iFrames.map { Int(($0.duration + 0.5).rounded(.down)) }.max() ?? 1
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:4",
            "#EXT-X-TARGETDURATION:\(max(longest, 1))",
            "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-I-FRAMES-ONLY",
        ]
        for frame in rendition.iFrames {
            lines.append("#EXTINF:\(decimal(frame.duration)),")
            lines.append("#EXT-X-BYTERANGE:\(frame.length)@\(frame.offset)")
            lines.append(rendition.segments[frame.segmentIndex].fileName)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The master playlist: one variant per rendition in ascending bandwidth, then one I-frame stream each.
    static func master(_ renditions: [Rendition], targetDuration: Int) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let ordered = renditions.sorted {
            Bandwidth.peak(of: $0.segments, targetDuration: targetDuration)
                < Bandwidth.peak(of: $1.segments, targetDuration: targetDuration)
        }
        for rendition in ordered {
            let peak = Bandwidth.peak(of: rendition.segments, targetDuration: targetDuration)
            let average = Bandwidth.average(of: rendition.segments)
            lines.append(
                "#EXT-X-STREAM-INF:BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(average),"
                    + "RESOLUTION=\(rendition.rung.width)x\(rendition.rung.height),"
                    + "FRAME-RATE=\(String(format: "%.3f", rendition.frameRate)),CODECS=\"\(rendition.codecs)\""
            )
            lines.append("\(rendition.rung.name)/\(mediaPlaylist)")
        }
        for rendition in ordered {
            lines.append(
                "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(iFrameBandwidth(rendition)),"
                    + "RESOLUTION=\(rendition.rung.width)x\(rendition.rung.height),"
                    + "CODECS=\"\(rendition.videoCodec)\",URI=\"\(rendition.rung.name)/\(iFramePlaylist)\""
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The peak bitrate of the I-frame stream: the largest I-frame size over the time it stands for.
    private static func iFrameBandwidth(_ rendition: Rendition) -> Int {
        let rates = rendition.iFrames.filter { $0.duration > 0 }.map { Double($0.length) * 8 / $0.duration }
        return Int((rates.max() ?? 0).rounded(.up))
    }

    private static func decimal(_ value: Double) -> String { String(format: "%.5f", value) }
}
