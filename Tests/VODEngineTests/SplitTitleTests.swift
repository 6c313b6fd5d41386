import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODFFmpeg
import VODTestSupport

/// A long title split into chunks (`SplitTitle`, `Transcoder.encodeChunk`) gives what one transcode of the whole
/// gives: the same segments on the same boundaries, the same pictures within 0.2 dB, sound without a gap, and a
/// title `vod validate` passes.
@Suite("Split and stitch", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct SplitTitleTests {
    static let options = TranscodeOptions(ladder: [
        Rung(name: "360p", width: 640, height: 360, bitrate: 600_000),
        Rung(name: "240p", width: 426, height: 240, bitrate: 300_000),
    ], preset: "superfast", shortSegments: 1)

    @Test func aTitleSplitIntoChunksMatchesOneTranscodeOfTheWhole() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 62).make(in: directory.url)
        let whole = directory.url.appendingPathComponent("whole")
        let split = directory.url.appendingPathComponent("split")
        _ = try await Transcoder(options: Self.options).transcode(input: clip, outputDirectory: whole.path)

        let title = try #require(try SplitTitle.plan(input: clip, outputDirectory: split.path, options: Self.options,
                                                     splitAfter: 20, chunkSeconds: 18, cancellation: CancellationFlag()))
        #expect(title.chunks.map(\.startFrame) == [0, 60, 600, 1140], "the 2 s first segment, then 18 s chunks on segment boundaries")
        #expect(title.chunks.map(\.firstSegment) == [0, 1, 4, 7] && title.chunks.last?.endFrame == nil)
        #expect(try SplitTitle.plan(input: clip, outputDirectory: split.path, options: Self.options, splitAfter: 62,
                                    cancellation: CancellationFlag()) == nil, "a title no longer than the threshold is not split")

        // The tracks on a thread of their own, the chunks out of order, as workers would take them.
        let tracks = Task { try await title.encodeTracks(cancellation: CancellationFlag()) }
        try await tracks.value
        var published: [Int] = []
        for index in [2, 0, 3, 1] {
            try await Transcoder(options: Self.options).encodeChunk(input: clip, outputDirectory: split.path, chunk: title.chunks[index])
            published.append(try title.publish()?.segments ?? published.last ?? 0)
        }
        // The last segment (the one frame the sound's end at 62.02 s adds after the 2 s one and ten of 6 s) is
        // listed once every chunk is done: the sound's last segment closes then, at the rungs' end.
        #expect(published == [0, 1, 1, 12], "EVENT playlists of the segments done from the start: \(published)")
        let result = try title.finish()

        let report = HLSConformance.check(masterURL: result.masterPlaylist)
        #expect(report.violations.map(\.description) == [])
        for rung in ["360p", "240p"] {
            let wholeSegments = try Self.segments(whole.appendingPathComponent("\(rung)/index.m3u8"))
            let splitSegments = try Self.segments(split.appendingPathComponent("\(rung)/index.m3u8"))
            #expect(splitSegments.map(\.name) == wholeSegments.map(\.name))
            #expect(zip(splitSegments, wholeSegments).allSatisfy { abs($0.duration - $1.duration) < 0.0005 },
                    "\(rung): \(splitSegments.map(\.duration)) against \(wholeSegments.map(\.duration))")
            let frames = try await Self.videoTimestamps(split.appendingPathComponent("\(rung)/index.m3u8"))
            let wholeFrames = try await Self.videoTimestamps(whole.appendingPathComponent("\(rung)/index.m3u8"))
            #expect(frames.count == wholeFrames.count && frames.count == Int((result.duration * 30).rounded()),
                    "\(frames.count) pictures, \(wholeFrames.count) in one transcode, for \(result.duration) s")
            let steps = Set(zip(frames.dropFirst(), frames).map { $0 - $1 })
            #expect(steps == [3000], "one frame (3000 ticks of 90 kHz) between every picture, across every join: \(steps)")
            let (width, height) = rung == "360p" ? (640, 360) : (426, 240)
            let splitPSNR = try await Self.psnr(split.appendingPathComponent("\(rung)/index.m3u8").path, against: clip, width: width, height: height)
            let wholePSNR = try await Self.psnr(whole.appendingPathComponent("\(rung)/index.m3u8").path, against: clip, width: width, height: height)
            #expect(abs(splitPSNR - wholePSNR) <= 0.2, "\(rung): split \(splitPSNR) dB, whole \(wholePSNR) dB")
        }
        let audio = try await Self.audioPackets(split.appendingPathComponent("audio_0/index.m3u8"))
        #expect(zip(audio.dropFirst(), audio).allSatisfy { $0.pts == $1.pts + $1.duration },
                "every AAC frame starts where the one before ends")
        #expect(abs(Double(audio.map(\.duration).reduce(0, +)) / 90_000 - result.duration) < 0.05)
        #expect(!FileManager.default.fileExists(atPath: split.appendingPathComponent("chunks").path), "the manifests are gone")
    }

    @Test func aChunksNextAttemptKeepsTheSegmentsItsManifestListsAndGoesOnAfterThem() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 30).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let title = try await Self.encodeEveryChunk(of: clip, into: output, splitAfter: 20, chunkSeconds: 12)
        #expect(title.chunks.map(\.firstSegment) == [0, 1, 3], "chunk 1 holds segments 1 and 2")
        // An attempt at chunk 1 that died after closing segment 1 in every rung: its manifest lists that alone.
        let manifest = try #require(try ChunkManifest.read(from: output, index: 1))
        try ChunkManifest(index: 1, complete: false, renditions: manifest.renditions.map { $0.prefix(1) }).write(to: output)
        var published: [URL: Date] = [:]
        for rung in ["360p", "240p"] {
            let folder = output.appendingPathComponent(rung)
            try FileManager.default.removeItem(at: folder.appendingPathComponent("segment_002.ts"))
            let kept = folder.appendingPathComponent("segment_001.ts")
            published[kept] = try #require(try FileManager.default.attributesOfItem(atPath: kept.path)[.modificationDate] as? Date)
        }
        #expect(try title.publish()?.segments == 2, "published as far as the chunk's first attempt went")

        try await Task.sleep(for: .milliseconds(20))
        try await Transcoder(options: Self.options).encodeChunk(input: clip, outputDirectory: output.path, chunk: title.chunks[1])
        for (file, modified) in published {
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == modified,
                    "\(file.path): a published segment is not written again")
        }
        let result = try title.finish()
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        for rung in ["360p", "240p"] {
            let playlist = output.appendingPathComponent("\(rung)/index.m3u8")
            #expect(try Self.segments(playlist).map(\.duration) == [2, 6, 6, 6, 6, 4], "\(rung)")
            let frames = try await Self.videoTimestamps(playlist)
            #expect(frames.count == 30 * 30 && Set(zip(frames.dropFirst(), frames).map { $0 - $1 }) == [3000],
                    "\(rung): every picture once, one frame apart, across the resumed chunk")
        }
    }

    /// A split title's sound ends with its picture, as one transcode of the whole ends it, or `vod validate` finds the
    /// last segments misaligned: sound that runs on a third of a frame past the last picture (AAC's padding at 10 s:
    /// 10.008 s) is cut, and a track that stops 0.6 s short (as a real capture's does) is filled with silence.
    @Test(arguments: [nil, 9.4] as [Double?]) func theSoundEndsWithThePicture(trackEnd: Double?) async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 640, height: 360, duration: 10)
        if let trackEnd { source.extraArguments = ["-af", "atrim=end=\(trackEnd)"] }
        let clip = try await source.make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let result = try await Self.encodeEveryChunk(of: clip, into: output, splitAfter: 4, chunkSeconds: 4).finish()
        #expect(result.duration == 10)
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let pictures = try await Self.videoTimestamps(output.appendingPathComponent("360p/index.m3u8"))
        let sound = try await Self.audioPackets(output.appendingPathComponent("audio_0/index.m3u8"))
        let pictureEnd = try #require(pictures.last) + 3000
        let soundEnd = try #require(sound.last.map { $0.pts + $0.duration })
        #expect(abs(soundEnd - pictureEnd) < 1920, "the sound ends \(soundEnd - pictureEnd) ticks of 90 kHz after the picture")
    }

    /// Plans the split of `clip` into `output`, then encodes its tracks and every chunk in order, as one worker would.
    static func encodeEveryChunk(of clip: String, into output: URL, splitAfter: Double, chunkSeconds: Double,
                                 options: TranscodeOptions = options) async throws -> SplitTitle {
        let title = try #require(try SplitTitle.plan(input: clip, outputDirectory: output.path, options: options,
                                                     splitAfter: splitAfter, chunkSeconds: chunkSeconds, cancellation: CancellationFlag()))
        try await title.encodeTracks(cancellation: CancellationFlag())
        for chunk in title.chunks {
            try await Transcoder(options: options).encodeChunk(input: clip, outputDirectory: output.path, chunk: chunk)
        }
        return title
    }

    /// The media playlist's segments: file name and EXTINF duration.
    static func segments(_ playlist: URL) throws -> [(name: String, duration: Double)] {
        let lines = try String(contentsOf: playlist, encoding: .utf8).components(separatedBy: "\n")
        return lines.indices.compactMap { index in
            guard lines[index].hasPrefix("#EXTINF:"), index + 1 < lines.count else { return nil }
            let value = lines[index].dropFirst("#EXTINF:".count).split(separator: ",").first.flatMap { Double($0) } ?? -1
            return (lines[index + 1], value)
        }
    }

    /// The presentation timestamps (90 kHz) of every picture ffprobe reads through the playlist, in order.
    static func videoTimestamps(_ playlist: URL) async throws -> [Int64] {
        let output = try await ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts",
                                                          "-of", "csv=p=0", playlist.path]).standardOutput
        return output.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Int64($0) } }.sorted()
    }

    /// Every audio packet's timestamp and duration (90 kHz).
    static func audioPackets(_ playlist: URL) async throws -> [(pts: Int64, duration: Int64)] {
        let output = try await ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                          "packet=pts,duration", "-of", "csv=p=0", playlist.path]).standardOutput
        return output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
    }

    /// The PSNR (all planes, dB) of a rendition against the source scaled to its size.
    static func psnr(_ rendition: String, against source: String, width: Int, height: Int) async throws -> Double {
        let output = try await ExternalTool.require("ffmpeg", [
            "-hide_banner", "-nostdin", "-nostats", "-i", rendition, "-i", source, "-lavfi",
            "[0:v]setpts=PTS-STARTPTS[d];[1:v]scale=\(width):\(height):flags=bicubic,setpts=PTS-STARTPTS[r];[d][r]psnr",
            "-f", "null", "-",
        ])
        let line = try #require(output.standardError.components(separatedBy: "\n").last { $0.contains("average:") })
        let value = try #require(line.components(separatedBy: "average:").last?.split(separator: " ").first)
        return try #require(Double(value))
    }
}
