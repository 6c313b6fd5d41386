import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODTestSupport

/// Sources that are legal but unusual each give a valid, playable ladder.
@Suite("Awkward sources", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct AwkwardSourceTests {
    @Test func tenBitSourceBecomesEightBitHigh() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 640, height: 360, duration: 3)
        source.pixelFormat = "yuv420p10le"
        let result = try await transcodeAndPlay(try await source.make(in: directory.url), in: directory)
        let stream = try await firstVideoStream(of: result)
        #expect(stream.profile == "High")
        #expect(result.variants.map { "\($0.width)x\($0.height)" } == ["640x360"])
    }

    @Test func oddDimensionsGiveEvenRungs() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 321, height: 241, duration: 3)
        source.container = "mkv"
        source.videoCodec = ["-c:v", "ffv1"]
        source.pixelFormat = "yuv444p"
        let result = try await transcodeAndPlay(try await source.make(in: directory.url), in: directory)
        #expect(result.variants.map { "\($0.name) \($0.width)x\($0.height)" } == ["240p 320x240"])
    }

    @Test func variableFrameRateGetsRegularKeyframes() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 640, height: 360, duration: 6)
        // 30 fps for two seconds, then every other frame: 15 fps.
        source.extraArguments = ["-vf", "select='lt(n\\,60)+not(mod(n\\,2))'", "-fps_mode", "vfr"]
        let clip = try await source.make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let playlist = try MediaPlaylistText(contentsOf: result.masterPlaylist.deletingLastPathComponent()
            .appendingPathComponent(result.variants[0].playlist))
        let keyframes = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v", "-skip_frame", "nokey", "-show_entries", "frame=pts_time",
            "-of", "csv=p=0", result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("360p/index.m3u8").path,
        ]).standardOutput.split(separator: "\n").compactMap { Double($0) }
        let gaps = zip(keyframes.dropFirst(), keyframes).map { $0 - $1 }
        #expect(!gaps.isEmpty)
        #expect(gaps.allSatisfy { abs($0 - 2) < 0.1 }, "an IDR every 2 s: \(keyframes)")
        #expect(abs(playlist.segments.reduce(0) { $0 + $1.duration } - 6) < 0.1)
    }

    @Test func sourceWithoutAudioGetsVideoOnlyRungs() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 3, hasAudio: false).make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.allSatisfy { $0.codecs.hasPrefix("avc1.") && !$0.codecs.contains(",") })
        let streams = try await IndependentPlayers.streams(at: result.masterPlaylist.path)
        #expect(!streams.contains { $0.codec_type == "audio" })
    }

    @Test(arguments: [90, 270])
    func rotationMetadataIsAppliedAsFFmpegAppliesIt(tag: Int) async throws {
        let directory = try TemporaryDirectory()
        let clip = try await halfWhiteClip(rotationTag: tag, in: directory)
        let probe = try MediaProber.probe(path: clip)
        #expect(probe.video?.rotation == 90 || probe.video?.rotation == 270)
        #expect(probe.video.map { "\($0.displayWidth)x\($0.displayHeight)" } == "360x640")

        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map { "\($0.width)x\($0.height)" } == ["360x640"])
        let segment = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("360p/segment_000.ts").path
        let ours = try await grayFrame(["-i", segment])
        // ffmpeg's command line turns pictures by their display matrix on its own: that is the reference.
        let expected = try await grayFrame(["-i", clip])
        #expect(ours.count == 360 * 640 && expected.count == ours.count)
        #expect(meanDifference(ours, expected) < 8, "the picture is turned as ffmpeg turns it")
    }

    /// A rung scaled from a larger rung's picture (see ScaleCascade) is turned once, like every other rung.
    @Test func aRungScaledFromAnotherRungsPictureIsTurnedLikeTheSource() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await halfWhiteClip(rotationTag: 90, in: directory)
        let ladder = [Rung(name: "120p", width: 212, height: 120, bitrate: 150_000),
                      Rung(name: "240p", width: 426, height: 240, bitrate: 300_000)]
        let plan = try LadderPlanner.plan(ladder: ladder, displayWidth: 360, displayHeight: 640)
        #expect(ScaleCascade.feeders(of: plan, sourceWidth: 360, sourceHeight: 640) == [1, nil], "120p comes from 240p")

        let result = try await transcodeAndPlay(clip, in: directory, ladder: ladder)
        #expect(result.variants.map { "\($0.width)x\($0.height)" } == plan.map { "\($0.width)x\($0.height)" })
        #expect(result.variants.allSatisfy { $0.height > $0.width }, "portrait")
        for variant in result.variants {
            let segment = result.masterPlaylist.deletingLastPathComponent()
                .appendingPathComponent("\(variant.name)/segment_000.ts").path
            let ours = try await grayFrame(["-i", segment])
            let expected = try await grayFrame(["-i", clip, "-vf", "scale=\(variant.width):\(variant.height)"])
            #expect(ours.count == variant.width * variant.height && expected.count == ours.count)
            #expect(meanDifference(ours, expected) < 8, "\(variant.width)x\(variant.height) is turned as ffmpeg turns it")
        }
    }

    @Test func probeReportsStreams() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 1).make(in: directory.url)
        let probe = try MediaProber.probe(path: clip)
        #expect(probe.container.contains("mp4"))
        #expect(probe.video?.codec == "h264")
        #expect(probe.video?.pixelFormat == "yuv420p")
        #expect(probe.video?.frameRate == 30)
        #expect(probe.audio?.sampleRate == 44_100)
        #expect(probe.audio?.channels == 1)
        #expect(abs((probe.duration ?? 0) - 1) < 0.1)
    }

    private func firstVideoStream(of result: TranscodeResult) async throws -> IndependentPlayers.ProbedStream {
        let url = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent(result.variants[0].playlist)
        return try #require(try await IndependentPlayers.streams(at: url.path).first { $0.codec_type == "video" })
    }

    /// A 640x360 clip with a white top half and a black bottom half, so the direction of a turn shows.
    private func halfWhiteClip(rotationTag: Int, in directory: TemporaryDirectory) async throws -> String {
        var source = SyntheticClip(width: 640, height: 360, duration: 2)
        source.videoSource = "color=white:size=SIZE:rate=RATE:duration=DURATION"
        source.extraArguments = ["-vf", "drawbox=y=180:w=640:h=180:color=black:t=fill"]
        source.rotationTag = rotationTag
        return try await source.make(in: directory.url)
    }
}
