import Foundation
import Testing
import VODEngine
import VODTestSupport

/// What broadcasters deliver: a DVB multiplex of SD programs.
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
}
