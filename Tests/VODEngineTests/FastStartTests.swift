import Foundation
import Testing
import VODConformance
import VODEngine
import VODFFmpeg
import VODTestSupport

/// The fast start: a title's first segment is one keyframe interval long and encoded with a faster preset, so
/// that it is out in seconds even where the largest rung encodes slower than real time; the rest of the rung
/// follows with its own preset, and the two join without a seam a player or `vod validate` can see.
@Suite("Fast start")
struct FastStartTests {
    static let ladder = [
        Rung(name: "360p", width: 640, height: 360, bitrate: 600_000),
        Rung(name: "240p", width: 426, height: 240, bitrate: 300_000),
    ]

    @Test func theFirstSegmentIsShortAndEncodedFasterThenTheRungRunsOnWithoutASeam() async throws {
        let directory = try TemporaryDirectory()
        let clip = try SyntheticClip(width: 640, height: 360, duration: 14).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let options = TranscodeOptions(ladder: Self.ladder, preset: "veryfast")
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path)

        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        for rung in ["360p", "240p"] {
            let playlist = output.appendingPathComponent("\(rung)/index.m3u8")
            let segments = try SplitTitleTests.segments(playlist)
            #expect(segments.map(\.duration) == [2, 6, 6], "\(rung): \(segments.map(\.duration))")
            let first = try Self.x264Settings(output.appendingPathComponent("\(rung)/segment_000.ts"))
            #expect(first?["subme"] == "1" && first?["rc_lookahead"] == "0", "\(rung): segment 0 is superfast: \(String(describing: first))")
            let second = try Self.x264Settings(output.appendingPathComponent("\(rung)/segment_001.ts"))
            #expect(second?["subme"] == "2" && second?["rc_lookahead"] == "10",
                    "\(rung): segment 1 starts the veryfast encoder: \(String(describing: second))")
            #expect(try Self.x264Settings(output.appendingPathComponent("\(rung)/segment_002.ts")) == nil,
                    "\(rung): the veryfast encoder runs on into segment 2")
            let frames = try SplitTitleTests.videoTimestamps(playlist)
            #expect(frames.count == 14 * 30, "\(rung): \(frames.count) pictures")
            #expect(Set(zip(frames.dropFirst(), frames).map { $0 - $1 }) == [3000], "\(rung): one frame between pictures, across the switch")
            let decodeTimes = try Self.decodeTimestamps(playlist)
            #expect(zip(decodeTimes.dropFirst(), decodeTimes).allSatisfy { $0 > $1 }, "\(rung): decode times rise across the switch")
            let warnings = try ExternalTool.require("ffmpeg", ["-v", "warning", "-i", playlist.path, "-f", "null", "-"]).standardError
            #expect(warnings.isEmpty, "\(rung): \(warnings)")
        }
    }

    @Test func theStartPresetIsUsedOnlyWhereItIsFaster() async throws {
        let directory = try TemporaryDirectory()
        let clip = try SyntheticClip(width: 640, height: 360, duration: 8).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let options = TranscodeOptions(ladder: [Self.ladder[1]], preset: "superfast", firstSegmentDuration: 6, startPreset: "veryfast")
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path)

        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let segments = try SplitTitleTests.segments(output.appendingPathComponent("240p/index.m3u8"))
        #expect(segments.map(\.duration) == [6, 2], "a first segment as long as the others: \(segments.map(\.duration))")
        let first = try Self.x264Settings(output.appendingPathComponent("240p/segment_000.ts"))
        #expect(first?["subme"] == "1" && first?["rc_lookahead"] == "0", "superfast, as asked: \(String(describing: first))")
        #expect(try Self.x264Settings(output.appendingPathComponent("240p/segment_001.ts")) == nil, "one encoder for the whole rung")
    }

    /// The settings x264 writes into the first IDR it encodes (its SEI), as name=value pairs; nil when no encoder
    /// started in the segment.
    static func x264Settings(_ segment: URL) throws -> [String: String]? {
        let elementary = segment.appendingPathExtension("h264")
        _ = try ExternalTool.require("ffmpeg", ["-v", "error", "-y", "-i", segment.path, "-map", "0:v", "-c", "copy", "-f", "h264",
                                                elementary.path])
        let stream = try Data(contentsOf: elementary)
        let text = String(decoding: stream.map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x0A }, as: UTF8.self)
        guard let options = text.components(separatedBy: "options: ").dropFirst().first?.components(separatedBy: "\n").first else {
            return nil
        }
        return Dictionary(options.split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The decode timestamps (90 kHz) of every picture ffprobe reads through the playlist, in stream order.
    static func decodeTimestamps(_ playlist: URL) throws -> [Int64] {
        let output = try ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=dts",
                                                          "-of", "csv=p=0", playlist.path]).standardOutput
        return output.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Int64($0) } }
    }
}
