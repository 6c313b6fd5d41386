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
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:4",
            "#EXT-X-TARGETDURATION:\(iFrameTargetDuration(rendition))",
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
    /// Every rung is 8-bit H.264 in BT.709, so every variant says `VIDEO-RANGE=SDR`.
    static func master(_ renditions: [Rendition], targetDuration: Int) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
        let ordered = renditions.sorted {
            Bandwidth.peak(of: $0.segmentPieces, targetDuration: targetDuration)
                < Bandwidth.peak(of: $1.segmentPieces, targetDuration: targetDuration)
        }
        for rendition in ordered {
            let peak = Bandwidth.peak(of: rendition.segmentPieces, targetDuration: targetDuration)
            let average = Bandwidth.average(of: rendition.segmentPieces)
            lines.append(
                "#EXT-X-STREAM-INF:BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(average),"
                    + "RESOLUTION=\(rendition.rung.width)x\(rendition.rung.height),"
                    + "FRAME-RATE=\(String(format: "%.3f", rendition.frameRate)),CODECS=\"\(rendition.codecs)\","
                    + "VIDEO-RANGE=SDR"
            )
            lines.append("\(rendition.rung.name)/\(mediaPlaylist)")
        }
        for rendition in ordered {
            lines.append(
                "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(Bandwidth.peak(of: rendition.iFramePieces, targetDuration: iFrameTargetDuration(rendition))),"
                    + "RESOLUTION=\(rendition.rung.width)x\(rendition.rung.height),"
                    + "CODECS=\"\(rendition.videoCodec)\",URI=\"\(rendition.rung.name)/\(iFramePlaylist)\""
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The I-frame playlist's target duration: the longest I-frame interval, rounded half up.
    private static func iFrameTargetDuration(_ rendition: Rendition) -> Int {
        max(rendition.iFrames.map { Int(($0.duration + 0.5).rounded(.down)) }.max() ?? 1, 1)
    }

    /// Durations are kept at the precision they are written with, so measured bitrates match the playlist.
    static let durationPrecision = 100_000.0

    private static func decimal(_ value: Double) -> String { String(format: "%.5f", value) }
}
