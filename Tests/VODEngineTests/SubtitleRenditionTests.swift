import Foundation
import Testing
@testable import VODEngine
import VODTestSupport

/// Text subtitle tracks reach the player as WebVTT renditions; bitmap tracks are left out without trouble.
@Suite("Subtitle renditions", .serialized, .tags(.ffmpeg, .gstreamer, .sharedMedia), .needsExternalTools, .timeLimit(.minutes(10)))
struct SubtitleRenditionTests {
    static let english = """
        1
        00:00:01,000 --> 00:00:02,500
        <i>Hello</i> & welcome

        2
        00:00:07,000 --> 00:00:09,000
        Across the second cut

        """
    static let french = """
        [Script Info]
        ScriptType: v4.00+

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\i1}Bonjour{\\i0}\\Nà tous

        """

    @Test func textTracksBecomeWebVTTRenditionsOnTheVideosBoundaries() async throws {
        let directory = try TemporaryDirectory()
        let srt = directory.url.appendingPathComponent("en.srt")
        let ass = directory.url.appendingPathComponent("fr.ass")
        try Self.english.write(to: srt, atomically: true, encoding: .utf8)
        try Self.french.write(to: ass, atomically: true, encoding: .utf8)
        let video = try await SyntheticClip(width: 640, height: 360, duration: 14).make(in: directory.url, name: "video")
        let clip = directory.url.appendingPathComponent("film.mkv").path
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-i", video, "-i", srt.path, "-i", ass.path, "-map", "0", "-map", "1", "-map", "2",
            "-c:v", "copy", "-c:a", "copy", "-c:s:0", "srt", "-c:s:1", "ass",
            "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre",
            "-disposition:s:0", "default", "-disposition:s:1", "forced", clip,
        ])
        let result = try await transcodeAndPlay(clip, in: directory)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") } == [
            #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI="subtitles_0/index.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,FORCED=YES,URI="subtitles_1/index.m3u8""#,
        ])
        #expect(master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.allSatisfy { $0.contains(#"SUBTITLES="subs""#) })

        let folder = result.masterPlaylist.deletingLastPathComponent()
        let first = try String(contentsOf: folder.appendingPathComponent("subtitles_0/segment_000.vtt"), encoding: .utf8)
        // Five 2 s segments, then 6 s ones: the cut at 8 s is between segments 3 and 4.
        let beforeCut = try String(contentsOf: folder.appendingPathComponent("subtitles_0/segment_003.vtt"), encoding: .utf8)
        let afterCut = try String(contentsOf: folder.appendingPathComponent("subtitles_0/segment_004.vtt"), encoding: .utf8)
        #expect(first.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n"))
        #expect(first.contains("00:00:01.000 --> 00:00:02.500\nHello &amp; welcome\n"), "styling dropped, text kept")
        let spanning = "00:00:07.000 --> 00:00:09.000\nAcross the second cut\n"
        #expect(beforeCut.contains(spanning) && afterCut.contains(spanning), "a cue across a cut (8 s) is in both segments")
        #expect(!first.contains(spanning), "and in no other")
        let french = try String(contentsOf: folder.appendingPathComponent("subtitles_1/subtitles.vtt"), encoding: .utf8)
        #expect(french == "WEBVTT\n\n00:00:03.000 --> 00:00:04.000\nBonjour\nà tous\n")

        // ffmpeg, as an independent reader, reads the rendition back cue for cue.
        let read = try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-i", folder.appendingPathComponent("subtitles_0/index.m3u8").path, "-f", "srt", "-",
        ]).standardOutput
        #expect(read.contains("00:00:01,000 --> 00:00:02,500") && read.contains("Across the second cut"))
    }

    @Test func movTextCaptionsOfAnMP4BecomeWebVTT() async throws {
        let directory = try TemporaryDirectory()
        let srt = directory.url.appendingPathComponent("captions.srt")
        try Self.english.write(to: srt, atomically: true, encoding: .utf8)
        let video = try await SyntheticClip(width: 640, height: 360, duration: 4).make(in: directory.url, name: "video")
        let clip = directory.url.appendingPathComponent("captioned.mp4").path
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-i", video, "-i", srt.path, "-map", "0", "-map", "1", "-c:v", "copy", "-c:a", "copy",
            "-c:s", "mov_text", "-metadata:s:s:0", "language=eng", clip,
        ])
        let result = try await transcodeAndPlay(clip, in: directory)
        let vtt = try String(contentsOf: result.masterPlaylist.deletingLastPathComponent()
            .appendingPathComponent("subtitles_0/subtitles.vtt"), encoding: .utf8)
        // The 4 s title ends before the second cue starts, so only the first is kept.
        #expect(vtt == "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello &amp; welcome\n")
    }

    @Test func bitmapSubtitlesAreLeftOutWithoutTrouble() async throws {
        let directory = try TemporaryDirectory()
        let result = try await transcodeAndPlay(SharedMedia.path("mkv-sub-pgs.mkv"), in: directory)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(!master.contains("TYPE=SUBTITLES") && !master.contains("SUBTITLES="))
        let listed = try #require(try MediaProber.probe(path: SharedMedia.path("mkv-sub-pgs.mkv")).tracks)
        #expect(listed.map { "\($0.type) \($0.codec) \($0.status.rawValue)" }
                    == ["video h264 rendition", "audio ac3 rendition", "subtitle hdmv_pgs_subtitle skipped"])
        #expect(listed.last?.reason == "bitmap subtitles (hdmv_pgs_subtitle) are not turned into text")
        #expect(listed.last?.language == "en" && listed.last?.isDefault == true)
    }
}
