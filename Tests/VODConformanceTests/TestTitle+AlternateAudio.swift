import Foundation
import VODConformance

/// A title with demuxed audio and WebVTT subtitles: one video-only rung; English and French AAC-LC stereo renditions
/// in group "aac"; an English AC-3 5.1 rendition in group "ac3" with its own STREAM-INF; English subtitles.
///
/// ffmpeg encodes every stream (the hls muxer, one run per rendition so each gets its own TS playlist). Its multivariant
/// output breaks the rules (no CHANNELS, AUTOSELECT or X-TIMESTAMP-MAP, no cue repeated across a boundary), so the
/// master, the subtitles playlist and its WebVTT segments are written here from ffprobe's numbers.
extension TestTitle {
    static let alternateAudio: Result<TestTitle, FixtureError> = Result {
        try TestTitle.makeAlternateAudio()
    }.mapError { FixtureError(message: "\($0)") }

    /// The cues of the subtitles rendition: the second spans the boundary at 6 s, so both segments carry it.
    static let cues: [(start: String, end: String, text: String)] = [
        ("00:00:00.500", "00:00:02.000", "Hello there."),
        ("00:00:05.000", "00:00:07.000", "This cue spans the boundary."),
    ]

    private static func makeAlternateAudio() throws -> TestTitle {
        let directory = try temporaryDirectory()
        // No B-frames, so the first picture's PTS is the muxer's start, where the audio renditions start too.
        let video = RungSpec(name: "240p", width: 320, height: 240, audio: false, extra: ["-bf", "0"])
        let title = TestTitle(directory: directory, rungs: [video], removing: directory)
        try FileManager.default.createDirectory(at: title.url("240p"), withIntermediateDirectories: true)
        _ = try run("ffmpeg", video.arguments(in: directory))
        let sine = "sine=frequency=%d:sample_rate=48000"
        try title.encodeAudio("audio_en", input: String(format: sine, 440), codec: ["-c:a", "aac", "-ac", "2"])
        try title.encodeAudio("audio_fr", input: String(format: sine, 660), codec: ["-c:a", "aac", "-ac", "2"])
        try title.encodeAudio("audio_51", input: String(format: sine, 440) + ",pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0",
                              codec: ["-c:a", "ac3"])
        try title.writeSubtitles()
        try title.writeAlternateAudioMaster()
        return title
    }

    func encodeAudio(_ name: String, input: String, codec: [String]) throws {
        try FileManager.default.createDirectory(at: url(name), withIntermediateDirectories: true)
        _ = try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", input, "-t", "8"] + codec
            + ["-ar", "48000", "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod", "-hls_segment_type", "mpegts",
               "-hls_segment_filename", url(name).path + "/segment_%03d.ts", url(name).path + "/index.m3u8"])
    }

    /// The smallest video PTS of the first segment, by ffprobe.
    func firstVideoPTS() throws -> Int {
        let csv = try run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts", "-of", "csv=p=0",
                                      url("240p/segment_000.ts").path])
        guard let first = csv.split(separator: "\n").compactMap({ Int($0.prefix { $0 != "," }) }).min() else { throw FixtureError(message: "no video PTS") }
        return first
    }

    /// `subs_en/index.m3u8` with the video's EXTINF, and one WebVTT file per segment holding every cue it overlaps.
    private func writeSubtitles() throws {
        try FileManager.default.createDirectory(at: url("subs_en"), withIntermediateDirectories: true)
        let durations = try segmentSizes(rungs[0]).map(\.duration)
        let header = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(try firstVideoPTS()),LOCAL:00:00:00.000\n"
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD"]
        var start = 0.0
        for (index, duration) in durations.enumerated() {
            let end = start + duration
            let cues = Self.cues.filter { seconds($0.start) < end && seconds($0.end) > start }
            try write(header + cues.map { "\n\($0.start) --> \($0.end)\n\($0.text)\n" }.joined(), to: "subs_en/segment_\(index).vtt")
            lines += [String(format: "#EXTINF:%.6f,", duration), "segment_\(index).vtt"]
            start = end
        }
        try write((lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n", to: "subs_en/index.m3u8")
    }

    private func seconds(_ timestamp: String) -> Double {
        timestamp.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? 0) }
    }

    /// Peak and average of the video rung played with one audio rendition, segment by segment, by brute force.
    func bitRates(withAudio audio: String) throws -> (peak: Double, average: Double) {
        let video = try segmentSizes(rungs[0])
        let sound = try segmentSizes(RungSpec(name: audio, width: 0, height: 0))
        let together = zip(video, sound).map { ($0.bytes + $1.bytes, $0.duration) }
        var peak = 0.0
        for start in together.indices {
            for end in together.indices where end >= start {
                let duration = together[start...end].map(\.1).reduce(0, +)
                if duration >= 3 && duration <= 9 {
                    peak = max(peak, Double(together[start...end].map(\.0).reduce(0, +)) * 8 / duration)
                }
            }
        }
        let average = Double(together.map(\.0).reduce(0, +)) * 8 / together.map(\.1).reduce(0, +)
        return (peak, average)
    }

    private func writeAlternateAudioMaster() throws {
        let avc = try codecString(rungs[0])
        var lines = ["#EXTM3U", "#EXT-X-VERSION:4", "#EXT-X-INDEPENDENT-SEGMENTS",
                     "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"2\",URI=\"audio_en/index.m3u8\"",
                     "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"Français\",LANGUAGE=\"fr\",DEFAULT=NO,AUTOSELECT=YES,CHANNELS=\"2\",URI=\"audio_fr/index.m3u8\"",
                     "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"ac3\",NAME=\"English 5.1\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,CHANNELS=\"6\",URI=\"audio_51/index.m3u8\"",
                     "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI=\"subs_en/index.m3u8\""]
        let aac = try ["audio_en", "audio_fr"].map { try bitRates(withAudio: $0) }
        let surround = try bitRates(withAudio: "audio_51")
        let variants: [(String, String, (Double, Double))] = [("aac", "mp4a.40.2", (aac.map(\.peak).max() ?? 0, aac.map(\.average).max() ?? 0)),
                                                              ("ac3", "ac-3", (surround.peak, surround.average))]
        for (group, codec, rate) in variants.sorted(by: { $0.2.0 < $1.2.0 }) {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(Int((rate.0 * 1.02).rounded(.up))),AVERAGE-BANDWIDTH=\(Int(rate.1.rounded())),"
                + "RESOLUTION=320x240,FRAME-RATE=30.000,CODECS=\"\(avc),\(codec)\",VIDEO-RANGE=SDR,AUDIO=\"\(group)\",SUBTITLES=\"subs\"")
            lines.append("240p/index.m3u8")
        }
        let peak = try writeIFramePlaylist(rungs[0])
        lines.append("#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(Int(peak.rounded(.up))),RESOLUTION=320x240,CODECS=\"\(avc)\",URI=\"240p/iframes.m3u8\"")
        try write(lines.joined(separator: "\n") + "\n", to: "master.m3u8")
    }
}
