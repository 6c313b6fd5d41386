import Foundation
import Testing
@testable import VODEngine
import VODConformance
import VODFFmpeg
import VODTestSupport

/// Sources from 0.5 to 240 frames per second come out conformant: the 2 s keyframe grid kept (held pictures where a
/// source has too few), slow-motion captures at their stored timing, and decode times strictly increasing in
/// every rung.
@Suite("Odd frame rates", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct OddFrameRateTests {
    static let ladder = [Rung(name: "180p", width: 320, height: 180, bitrate: 200_000)]

    /// A 320×180 clip with sound at `rate` frames a second, its H.264 with B-frames, in an MP4 whose video
    /// timescale is `timescale`, with further ffmpeg output `arguments`.
    static func clip(rate: String, duration: Double, timescale: Int, _ arguments: [String] = [],
                     in directory: TemporaryDirectory) async throws -> String {
        var clip = SyntheticClip(width: 320, height: 180, duration: duration)
        clip.frameRate = rate
        clip.videoCodec = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3"]
        clip.extraArguments = ["-video_track_timescale", "\(timescale)"] + arguments
        return try await clip.make(in: directory.url, name: "rate")
    }

    @Test func lowRatesAreRaisedOntoTheKeyframeGrid() {
        let rates = [Rational(1, 2), Rational(1, 1), Rational(75, 46), Rational(3, 1), Rational(49, 10), Rational(30000, 1001)]
        #expect(rates.map { FrameRate(source: $0, keyframeInterval: 2).rate } == [
            Rational(2, 1), Rational(2, 1), Rational(2, 1), Rational(3, 1), Rational(5, 1), Rational(30000, 1001),
        ])
        #expect(FrameRate(source: Rational(240, 1), keyframeInterval: 2).rate == Rational(60, 1))
        #expect(FrameRate(source: Rational(0, 0), keyframeInterval: 2).rate == Rational(30, 1), "a source that does not say")
    }

    @Test func anIrregularTimelapseKeepsTheKeyframeGrid() async throws {
        let directory = try TemporaryDirectory()
        // About 1.6 pictures a second at irregular times: every tenth picture of 10 fps, and some between.
        let source = try await Self.clip(rate: "10", duration: 20, timescale: 1000, [
            "-vf", "select='not(mod(n,10))+eq(mod(n,17),3)',setpts=PTS-STARTPTS", "-fps_mode", "vfr",
        ], in: directory)
        let (rate, duration) = try await Self.expectConformant(source, in: directory)
        #expect(rate == 2, "raised onto the 2 s grid, its pictures held")
        #expect(abs(duration - 20) < 1.1)
    }

    @Test func oneFrameASecondWithBFramesAndAMillisecondTimescale() async throws {
        let directory = try TemporaryDirectory()
        let source = try await Self.clip(rate: "1", duration: 20, timescale: 1000, in: directory)
        let (rate, duration) = try await Self.expectConformant(source, in: directory)
        #expect(rate == 2 && abs(duration - 20) < 0.01, "each picture held for two frames")
    }

    @Test func aOneFrameASecondTitleSplitIntoChunksKeepsItsDecodeTimesIncreasingAcrossTheJoins() async throws {
        let directory = try TemporaryDirectory()
        let source = try await Self.clip(rate: "1", duration: 40, timescale: 1000, in: directory)
        let output = directory.url.appendingPathComponent("split")
        let options = TranscodeOptions(ladder: Self.ladder, preset: "superfast")
        let title = try #require(try SplitTitle.plan(input: source, outputDirectory: output.path, options: options,
                                                     splitAfter: 20, chunkSeconds: 12, cancellation: CancellationFlag()))
        #expect(title.chunks.count > 2, "the 2 s first segment, then chunks")
        try await title.encodeTracks(cancellation: CancellationFlag())
        for chunk in title.chunks {
            try await Transcoder(options: options).encodeChunk(input: source, outputDirectory: output.path, chunk: chunk)
        }
        let result = try title.finish()
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let dts = try await Self.decodeTimes(output.appendingPathComponent("180p/index.m3u8").path)
        #expect(zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "across every join: \(dts.prefix(8))")
        #expect(dts.count == 80, "40 s at 2 fps")
    }

    @Test func halfAFrameASecondIsHeldAtTwo() async throws {
        let directory = try TemporaryDirectory()
        let source = try await Self.clip(rate: "1/2", duration: 20, timescale: 16384, in: directory)
        let (rate, duration) = try await Self.expectConformant(source, in: directory)
        #expect(rate == 2, "each picture held for four frames, not sixty")
        #expect(abs(duration - 20) < 0.01)
    }

    @Test func twoHundredFortyFramesASecondWithALargeTimescale() async throws {
        let directory = try TemporaryDirectory()
        let source = try await Self.clip(rate: "240", duration: 4, timescale: 960_000, in: directory)
        let (rate, duration) = try await Self.expectConformant(source, in: directory)
        #expect(rate == 60 && abs(duration - 4) < 0.02)
    }

    @Test func aPhoneSlowMotionClipKeepsItsStoredTiming() async throws {
        let directory = try TemporaryDirectory()
        // Stored at 30 fps, captured at 240, as Android phones tag it (`com.android.capture.fps` in `mdta`).
        let source = try await Self.clip(rate: "30", duration: 4, timescale: 15360, [
            "-movflags", "use_metadata_tags", "-metadata", "com.android.capture.fps=240.000000",
        ], in: directory)
        let (rate, duration) = try await Self.expectConformant(source, in: directory)
        #expect(rate == 30 && abs(duration - 4) < 0.05)
    }

    /// Transcodes `source` and checks the rung: every rule (vod validate), ffmpeg and GStreamer play it, its decode
    /// times strictly increase, and an IDR starts every 2 s. Returns the rung's frame rate and duration.
    static func expectConformant(_ source: String, in directory: TemporaryDirectory) async throws -> (rate: Double, duration: Double) {
        let result = try await transcodeAndPlay(source, in: directory, ladder: ladder)
        let playlist = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("180p/index.m3u8").path
        let packets = try await Self.packets(playlist)
        let dts = packets.compactMap { Double($0[1]) }
        #expect(dts.count == packets.count && zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "decode times strictly increase")
        let start = packets.compactMap { Double($0[0]) }.min() ?? 0
        let keyframes = packets.filter { $0[2].hasPrefix("K") }.compactMap { Double($0[0]) }.map { $0 - start }.sorted()
        let duration = result.duration
        let grid = stride(from: 0.0, to: duration - 0.01, by: 2.0).map { $0 }
        #expect(grid.allSatisfy { time in keyframes.contains { abs($0 - time) < 0.02 } }, "an IDR every 2 s: \(keyframes)")
        let decoded = try await ExternalTool.require("ffmpeg", ["-v", "error", "-i", playlist, "-f", "null", "-"])
        #expect(!decoded.standardError.contains("non monotonically increasing dts") && decoded.standardError.isEmpty)
        return (result.variants[0].frameRate, duration)
    }

    /// The `pts_time,dts_time,flags` of every video packet of the rendition at `playlist`, as ffprobe reads them.
    static func packets(_ playlist: String) async throws -> [[String]] {
        try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,dts_time,flags", "-of", "csv=p=0", playlist,
        ]).standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }.filter { $0.count == 3 }
    }

    /// The decode times of every video packet of the rendition at `playlist`, in seconds.
    static func decodeTimes(_ playlist: String) async throws -> [Double] {
        try await packets(playlist).compactMap { Double($0[1]) }
    }
}
