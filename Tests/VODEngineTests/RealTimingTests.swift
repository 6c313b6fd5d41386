import Foundation
import Testing
@testable import VODEngine
import VODFFmpeg
import VODTestSupport

/// Timing as cameras, editors and broadcasters write it, and failures said in words.
@Suite("Real-world timing and failures", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct RealTimingTests {
    @Test func editListIsHonoured() async throws {
        let directory = try TemporaryDirectory()
        let whole = try await SyntheticClip(width: 640, height: 360, duration: 4).make(in: directory.url, name: "whole")
        // Cutting at a picture that is not a keyframe makes the mp4 muxer write an edit list.
        let clip = directory.url.appendingPathComponent("cut.mp4").path
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-ss", "1.1", "-i", whole, "-c", "copy", clip])
        let expected = try await Self.duration(of: clip)
        let result = try await transcodeAndPlay(clip, in: directory)
        let covered = try result.playlistDuration()
        #expect(abs(covered - expected) <= 1.0 / 30, "playlists \(covered) s, source \(expected) s")
    }

    @Test func lateFirstTimestampDoesNotDelayPlayback() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 640, height: 360, duration: 3)
        source.container = "ts"
        source.extraArguments = ["-output_ts_offset", "3600"]
        let clip = try await source.make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let first = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time", "-read_intervals", "%+#1",
            "-of", "csv=p=0", result.segment("360p"),
        ]).standardOutput.split(whereSeparator: { $0 == "\n" || $0 == "," }).first.map(String.init) ?? ""
        #expect((Double(first) ?? 99) < 2, "the first picture is shown at once: \(first)")
        #expect(abs(try result.playlistDuration() - 3) <= 1.0 / 30)
    }

    @Test func audioEndingEarlyIsPaddedAndVideoEndingEarlyHoldsItsLastPicture() async throws {
        let directory = try TemporaryDirectory()
        for (video, audio) in [(3.0, 1.0), (1.0, 2.5)] {
            let clip = directory.url.appendingPathComponent("v\(video)-a\(audio).mkv").path
            try await ExternalTool.require("ffmpeg", [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(video)",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=\(audio)", "-c:v", "libx264", "-c:a", "aac", clip,
            ])
            let out = try TemporaryDirectory()
            let result = try await transcodeAndPlay(clip, in: out)
            let longest = max(video, audio)
            #expect(abs(try result.playlistDuration() - longest) <= 0.04 + 0.03, "\(video) s video, \(audio) s audio")
            let streams = try await IndependentPlayers.streams(at: result.masterPlaylist.deletingLastPathComponent()
                .appendingPathComponent(result.variants[0].playlist).path)
            #expect(streams.map(\.codec_type).sorted() == ["audio", "video"])
        }
    }

    @Test func multiProgramTransportStreamUsesTheProgramWithTheBestVideo() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.url.appendingPathComponent("two-programs.ts").path
        try await ExternalTool.require("ffmpeg", [
            "-v", "error",
            "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=1000:duration=2",
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=2",
            "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo:d=2",
            "-map", "0:v", "-map", "1:a", "-map", "2:v", "-map", "3:a", "-c:v", "libx264", "-c:a", "aac",
            "-program", "title=small:st=0:st=1", "-program", "title=large:st=2:st=3", clip,
        ])
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map { "\($0.width)x\($0.height)" } == ["640x360"])
        // The large picture's program is silent; the small one's tone must not come along.
        let volume = try await ExternalTool.require("ffmpeg", [
            "-v", "info", "-i", result.segment("360p"), "-map", "0:a", "-af", "volumedetect", "-f", "null", "-",
        ]).standardError
        let line = try #require(volume.split(separator: "\n").first { $0.contains("max_volume") })
        let maxVolume = Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) ?? 0
        #expect(maxVolume < -50, "the audio of the other program: \(line)")
    }

    @Test func undecodableVideoFailsWithTheDecodersReason() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.undecodable(in: directory.url)
        let error = await #expect(throws: MediaError.self) {
            try await Transcoder().transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        }
        #expect(error?.reason == "the video stream could not be decoded (vp9: Invalid frame marker)")
    }

    @Test func fileEndingBeforeTheFirstPictureSaysSo() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 320, height: 240, duration: 2, hasAudio: false)
        source.extraArguments = ["-movflags", "+faststart"]
        let clip = try await source.make(in: directory.url)
        // Keep the header (the moov box, at the front) and cut the pictures off.
        let header = try Self.mdatOffset(of: clip)
        let truncated = directory.url.appendingPathComponent("truncated.mp4").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: clip)).prefix(header + 8)).write(to: URL(fileURLWithPath: truncated))
        let error = await #expect(throws: MediaError.self) {
            try await Transcoder().transcode(input: truncated, outputDirectory: directory.url.appendingPathComponent("out").path)
        }
        #expect(error?.reason == "the file ends before the first video frame")
    }

    /// Where the mp4's media data box starts.
    static func mdatOffset(of path: String) throws -> Int {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self) == "mdat" { return offset }
            guard size >= 8 else { break }
            offset += size
        }
        Issue.record("no mdat box in \(path)")
        return bytes.count
    }

    static func duration(of path: String) async throws -> Double {
        let text = try await ExternalTool.require("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
            .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(Double(text))
    }
}
