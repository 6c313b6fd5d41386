import Foundation
import VODModel

/// Writes the text of HLS master, media and I-frame playlists (RFC 8216).
enum PlaylistWriter {
    /// The media playlist file name inside each rung folder.
    static let mediaPlaylist = "index.m3u8"
    /// The I-frame playlist file name inside each rung folder.
    static let iFramePlaylist = "iframes.m3u8"
    /// The master playlist file name.
    static let masterPlaylist = "master.m3u8"

    /// The target duration shared by every rendition: the longest segment, rounded half up. The video rungs
    /// set it; an audio-only title's audio renditions do.
    static func targetDuration(of renditions: [Rendition], audio: [AlternateRendition] = []) -> Int {
        let segments = renditions.isEmpty ? audio.flatMap(\.segments) : renditions.flatMap(\.segments)
        let longest = segments.map { Int(($0.duration + 0.5).rounded(.down)) }.max() ?? 1
        return max(longest, 1)
    }

    /// A media playlist listing every segment: VOD with `#EXT-X-ENDLIST` when the rendition is complete, else
    /// EVENT without it, for a title published while it is still being transcoded. With `map`, the segments are
    /// fMP4 after that init segment (`#EXT-X-MAP`, version 6).
    static func media(_ segments: [Segment], targetDuration: Int, complete: Bool = true, map: String? = nil) -> String {
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:\(map == nil ? 3 : 6)",
            "#EXT-X-TARGETDURATION:\(targetDuration)",
            "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:\(complete ? "VOD" : "EVENT")",
            "#EXT-X-INDEPENDENT-SEGMENTS",
        ] + mapLine(map)
        for segment in segments {
            lines.append("#EXTINF:\(decimal(segment.duration)),")
            lines.append(segment.fileName)
        }
        if complete { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An I-frames-only playlist whose entries are byte ranges of the IDR pictures in the segments; VOD or
    /// EVENT as for `media`. With `map`, the ranges are each a fragment's `moof` and keyframe in fMP4 segments
    /// after that init segment.
    static func iFrames(_ rendition: Rendition, complete: Bool = true, map: String? = nil) -> String {
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:\(map == nil ? 4 : 6)",
            "#EXT-X-TARGETDURATION:\(iFrameTargetDuration(rendition))",
            "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:\(complete ? "VOD" : "EVENT")",
            "#EXT-X-I-FRAMES-ONLY",
        ] + mapLine(map)
        for frame in rendition.iFrames {
            lines.append("#EXTINF:\(decimal(frame.duration)),")
            lines.append("#EXT-X-BYTERANGE:\(frame.length)@\(frame.offset)")
            lines.append(rendition.segments[frame.segmentIndex].fileName)
        }
        if complete { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `#EXT-X-MAP` line naming an init segment, if there is one.
    private static func mapLine(_ map: String?) -> [String] {
        map.map { ["#EXT-X-MAP:URI=\"\($0)\""] } ?? []
    }

    /// The subtitles group every variant names when the title has subtitle renditions.
    static let subtitlesGroup = "subs"

    /// The master playlist: the audio renditions, one variant per rendition, the H.264 SDR rungs first in
    /// ascending bandwidth and then the others (HEVC twins, HDR rungs) in ascending bandwidth, then one I-frame
    /// stream each in the same order. The first variant is where many players start: a PQ rung of less
    /// bandwidth than the smallest SDR one came first, and a player without HDR began with its washed-out picture. Every variant says its rung's `VIDEO-RANGE`: `SDR` for 8-bit H.264 or HEVC in BT.709,
    /// `PQ` or `HLG` for an HDR rung in 10-bit HEVC, whose I-frame stream says it too.
    /// With `chapters`, it names the title's `ChapterList`.
    /// With `closedCaptions`, it announces the CEA-608 channels every rung carries (H.264 and HEVC alike), and
    /// every variant names them.
    static func master(
        _ renditions: [Rendition], audio: [AlternateRendition], subtitles: [AlternateRendition] = [], targetDuration: Int,
        chapters: Bool = false, closedCaptions: [ClosedCaptionListing] = []
    ) -> String {
        var lines = masterHeader(chapters: chapters)
        lines += (audio + subtitles).map(media) + closedCaptions.map(ClosedCaptionGroup.media)
        // One set of variants per audio group (AAC stereo first, then AC-3 5.1), all on the same video playlists.
        let groups = audio.reduce(into: [String]()) { groups, rendition in
            if !groups.contains(rendition.group) { groups.append(rendition.group) }
        }
        for group in groups.isEmpty ? [nil] : groups.map(Optional.some) {
            let members = audio.filter { $0.group == group }
            let variants = renditions.map { VariantBandwidth($0, audio: members, targetDuration: targetDuration) }
            for variant in variants.sorted(by: { startOrder($0.rendition, $0.peak) < startOrder($1.rendition, $1.peak) }) {
                lines.append(streamInf(variant, audioGroup: group, subtitles: !subtitles.isEmpty,
                                       closedCaptions: !closedCaptions.isEmpty))
                lines.append("\(variant.rendition.rung.name)/\(mediaPlaylist)")
            }
        }
        let byPeak = renditions.map { ($0, Bandwidth.peak(of: $0.segmentPieces, targetDuration: targetDuration)) }
        lines += byPeak.sorted { startOrder($0.0, $0.1) < startOrder($1.0, $1.1) }.map { iFrameStreamInf($0.0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where a rendition of `peak` bandwidth comes in the master: every player plays H.264 SDR, so those first.
    private static func startOrder(_ rendition: Rendition, _ peak: Int) -> (Int, Int) {
        (rendition.rung.codec == .h264 && !rendition.rung.isHDR ? 0 : 1, peak)
    }

    /// The master playlist of an audio-only title: one variant per audio group (AAC stereo, then AC-3 5.1), each
    /// on its group's default rendition and declaring the group's largest. A title of one track lists its
    /// encodings as the variants themselves, with no `#EXT-X-MEDIA` line.
    static func audioOnlyMaster(
        _ audio: [AlternateRendition], subtitles: [AlternateRendition], targetDuration: Int, chapters: Bool = false
    ) -> String {
        var lines = masterHeader(chapters: chapters)
        let alternates = audio.contains { rendition in audio.filter { $0.group == rendition.group }.count > 1 }
        lines += ((alternates ? audio : []) + subtitles).map(media)
        for variant in AudioOnlyVariant.variants(of: audio, targetDuration: targetDuration) {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(variant.peak),AVERAGE-BANDWIDTH=\(variant.average),CODECS=\"\(variant.codec)\""
                + (alternates ? ",AUDIO=\"\(variant.group)\"" : "") + (subtitles.isEmpty ? "" : ",SUBTITLES=\"\(subtitlesGroup)\""))
            lines.append(variant.playlist)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first lines of a master playlist, with the `#EXT-X-SESSION-DATA` of the title's chapters if it has any.
    private static func masterHeader(chapters: Bool) -> [String] {
        ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"] + (chapters ? [ChapterList.sessionData] : [])
    }

    /// The `#EXT-X-STREAM-INF` line of a variant, naming its audio group, the subtitles group and the closed
    /// captions group.
    private static func streamInf(_ variant: VariantBandwidth, audioGroup: String?, subtitles: Bool, closedCaptions: Bool) -> String {
        let rendition = variant.rendition
        return "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.peak),AVERAGE-BANDWIDTH=\(variant.average),"
            + "RESOLUTION=\(rendition.rung.width)x\(rendition.rung.height),"
            + "FRAME-RATE=\(String(format: "%.3f", rendition.frameRate)),CODECS=\"\(variant.codecs)\","
            + (audioGroup.map { "AUDIO=\"\($0)\"," } ?? "")
            + (subtitles ? "SUBTITLES=\"\(subtitlesGroup)\"," : "")
            + (closedCaptions ? "CLOSED-CAPTIONS=\"\(ClosedCaptionGroup.id)\"," : "")
            + "VIDEO-RANGE=\(rendition.rung.videoRange)"
    }

    /// The `#EXT-X-I-FRAME-STREAM-INF` line of a rung.
    private static func iFrameStreamInf(_ rendition: Rendition) -> String {
        "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(Bandwidth.peak(of: rendition.iFramePieces, targetDuration: iFrameTargetDuration(rendition))),"
            + "RESOLUTION=\(rendition.rung.width)x\(rendition.rung.height),"
            + "CODECS=\"\(rendition.videoCodec)\"," + (rendition.rung.isHDR ? "VIDEO-RANGE=\(rendition.rung.videoRange)," : "")
            + "URI=\"\(rendition.rung.name)/\(iFramePlaylist)\""
    }

    /// The `#EXT-X-MEDIA` line of an alternate rendition.
    static func media(_ rendition: AlternateRendition) -> String {
        let audio = rendition.kind == .audio
        var attributes = ["TYPE=\(audio ? "AUDIO" : "SUBTITLES")", "GROUP-ID=\"\(rendition.group)\"",
                          "NAME=\"\(quotable(rendition.name))\""]
        if let language = rendition.language { attributes.append("LANGUAGE=\"\(language)\"") }
        attributes += ["DEFAULT=\(rendition.isDefault ? "YES" : "NO")", "AUTOSELECT=YES"]
        attributes.append(audio ? "CHANNELS=\"\(rendition.channels)\"" : "FORCED=\(rendition.isForced ? "YES" : "NO")")
        attributes.append("URI=\"\(rendition.playlist)\"")
        return "#EXT-X-MEDIA:" + attributes.joined(separator: ",")
    }

    /// A quoted-string attribute value cannot hold a double quote or a line break (RFC 8216 §4.2).
    static func quotable(_ text: String) -> String {
        String(text.map { $0 == "\"" ? "'" : $0.isNewline ? " " : $0 })
    }

    /// The I-frame playlist's target duration: the longest I-frame interval, rounded half up.
    private static func iFrameTargetDuration(_ rendition: Rendition) -> Int {
        max(rendition.iFrames.map { Int(($0.duration + 0.5).rounded(.down)) }.max() ?? 1, 1)
    }

    /// Durations are kept at the precision they are written with, so measured bitrates match the playlist.
    static let durationPrecision = 100_000.0

    private static func decimal(_ value: Double) -> String { String(format: "%.5f", value) }
}
