import Foundation
import Testing
import VODEngine
import VODTestSupport

/// What broadcasters deliver: a DVB multiplex of SD programs, and D-10 (IMX) pictures with their vertical
/// blanking.
@Suite("Broadcast sources", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(5)))
struct BroadcastSourceTests {
    /// Two programs of 720×576 anamorphic 16:9 MPEG-2 with MP2 sound, as a DVB multiplex carries them: one SD
    /// rung at the display size, never upscaled, with the chosen program's own sound.
    @Test func anSDMultiplexIsNotUpscaledAndKeepsItsProgramsSound() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.url.appendingPathComponent("multiplex.ts").path
        try await ExternalTool.require("ffmpeg", [
            "-v", "error",
            "-f", "lavfi", "-i", "testsrc2=size=720x576:rate=25:duration=2", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
            "-f", "lavfi", "-i", "testsrc=size=720x576:rate=25:duration=2", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=2",
            "-map", "0:v", "-map", "1:a", "-map", "2:v", "-map", "3:a", "-c:v", "mpeg2video", "-b:v", "2M", "-aspect", "16:9",
            "-c:a", "mp2", "-b:a", "128k", "-program", "title=A:st=0:st=1", "-program", "title=B:st=2:st=3", "-f", "mpegts", clip,
        ])
        let probe = try MediaProber.probe(path: clip)
        let video = try #require(probe.video)
        #expect("\(video.displayWidth)x\(video.displayHeight)" == "1024x576")
        let audio = probe.tracks?.filter { $0.type == "audio" } ?? []
        #expect(audio.map(\.status) == (video.index == 0 ? [.rendition, .skipped] : [.skipped, .rendition]))

        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map { "\($0.name) \($0.width)x\($0.height) \($0.codecs)" } == ["576p 1024x576 avc1.64001f,mp4a.40.2"])
        let streams = try await IndependentPlayers.streams(at: result.segment("576p"))
        #expect(streams.map(\.codec_type) == ["video", "audio"] && streams.last?.channels == 2)
        let playlist = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("576p/index.m3u8").path
        let tone = video.index == 0 ? 440.0 : 660.0
        #expect(abs(try await AudioRenditionTests.toneFrequency(of: playlist) - tone) < 15, "the video's own program's sound")
    }

    /// D-10 codes 576 PAL lines as 720×608, its top 32 lines vertical blanking: they are cut, and the 4:3 the
    /// stream declares is that of the 576 lines left, shown 768×576.
    @Test func d10LosesItsBlankingLines() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.url.appendingPathComponent("imx.mxf").path
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=720x576:rate=25:duration=2",
            "-vf", "pad=720:608:0:32:color=white", "-aspect", "4:3", "-c:v", "mpeg2video", "-pix_fmt", "yuv422p", "-g", "1",
            "-b:v", "30M", "-minrate", "30M", "-maxrate", "30M", "-bufsize", "1200000", "-rc_init_occupancy", "1200000",
            "-flags", "+ildct+ilme", "-top", "1", "-f", "mxf_d10", clip,
        ])
        let video = try #require(try MediaProber.probe(path: clip).video)
        #expect("\(video.width)x\(video.height) \(video.displayWidth)x\(video.displayHeight)" == "720x608 768x576")

        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map { "\($0.name) \($0.width)x\($0.height)" } == ["576p 768x576"])
        let ours = try await grayFrame(["-i", result.segment("576p")])
        let picture = try await grayFrame(["-i", clip, "-vf", "crop=720:576:0:32,scale=768:576"])
        #expect(ours.count == 768 * 576 && picture.count == ours.count)
        #expect(meanDifference(ours, picture) < 8, "the picture is the 576 lines below the blanking")
        let top = Array(ours.prefix(768 * 16))
        #expect(meanDifference(top, Array(picture.prefix(768 * 16))) < 10)
        #expect(top.filter { $0 > 230 }.count < top.count / 4, "the top rows are not the white blanking")
    }
}
