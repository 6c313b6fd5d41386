import Foundation
import Synchronization
import Testing
import VODConformance
import VODEngine
import VODFFmpeg
import VODTestSupport

/// The fast start: a published title's first segment is one keyframe interval long and, in the rungs that need
/// it, encoded with a faster preset, so that it is out in seconds even where the largest rung encodes slower than
/// real time; the rest of the rung follows with its own preset, the two join without a seam a player or
/// `vod validate` can see, and before the title is ready the first segment is encoded again at the rung's own
/// preset and swapped in, leaving nothing of the fast start behind.
@Suite("Fast start", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct FastStartTests {
    static let ladder = [
        Rung(name: "360p", width: 640, height: 360, bitrate: 600_000),
        Rung(name: "240p", width: 426, height: 240, bitrate: 300_000),
    ]

    @Test func theFirstSegmentStartsFastAndIsSwappedForAFullOneBeforeTheTitleIsReady() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 14).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let published = directory.url.appendingPathComponent("published")
        let options = TranscodeOptions(ladder: Self.ladder, preset: "veryfast", fastStartPixels: 0)
        let publications = Mutex<[[String]]>([])
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path, onPublish: { publication in
            // What a player saw at each publication: the playlists, and the first segments as first published.
            let count = publications.withLock { listed in
                listed.append(publication.rungs)
                return listed.count
            }
            try? FileManager.default.copyItem(at: output, to: published.appendingPathComponent("\(count)"))
        })

        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        for rung in ["360p", "240p"] {
            let playlist = output.appendingPathComponent("\(rung)/index.m3u8")
            let segments = try SplitTitleTests.segments(playlist)
            #expect(segments.map(\.duration) == [2, 2, 2, 2, 2, 4], "\(rung): \(segments.map(\.duration))")
            // The publications that list the rung: 240p, the smallest, from the first; 360p once it joins the master.
            let listing = zip(1..., publications.withLock { $0 }).filter { $0.1.contains(rung) }.map(\.0)
            let joined = try #require(listing.first, "\(rung) is listed before the end")
            // 240p leads and starts fast; 360p, which joins the master later, is encoded at its own preset throughout.
            let startsFast = rung == "240p"
            let asPublished = try await Self.x264Settings(published.appendingPathComponent("\(joined)/\(rung)/segment_000.ts"))
            #expect(startsFast ? asPublished?["subme"] == "1" && asPublished?["rc_lookahead"] == "0" : asPublished?["subme"] == "2",
                    "\(rung): segment 0 as published, superfast only in the leading rung: \(String(describing: asPublished))")
            let first = try await Self.x264Settings(output.appendingPathComponent("\(rung)/segment_000.ts"))
            #expect(first?["subme"] == "2" && first?["rc_lookahead"] == "10", "\(rung): the ready segment 0 is veryfast: \(String(describing: first))")
            let second = try await Self.x264Settings(output.appendingPathComponent("\(rung)/segment_001.ts"))
            #expect(startsFast ? second?["subme"] == "2" && second?["rc_lookahead"] == "10" : second == nil,
                    "\(rung): segment 1 starts the veryfast encoder where segment 0 was fast: \(String(describing: second))")
            #expect(try await Self.x264Settings(output.appendingPathComponent("\(rung)/segment_002.ts")) == nil,
                    "\(rung): the veryfast encoder runs on into segment 2")
            #expect(rung != "240p" || joined == 1, "the smallest rung is listed from the first publication")
            for publication in listing {
                let listed = try SplitTitleTests.segments(published.appendingPathComponent("\(publication)/\(rung)/index.m3u8"))
                #expect(listed.map(\.name) == segments.prefix(listed.count).map(\.name)
                        && listed.map(\.duration) == segments.prefix(listed.count).map(\.duration),
                        "\(rung): publication \(publication) lists what the ready playlist lists: \(listed) against \(segments)")
            }
            let frames = try await SplitTitleTests.videoTimestamps(playlist)
            #expect(frames.count == 14 * 30, "\(rung): \(frames.count) pictures")
            #expect(Set(zip(frames.dropFirst(), frames).map { $0 - $1 }) == [3000], "\(rung): one frame between pictures, across the switch")
            let decodeTimes = try await Self.decodeTimestamps(playlist)
            #expect(zip(decodeTimes.dropFirst(), decodeTimes).allSatisfy { $0 > $1 }, "\(rung): decode times rise across the switch")
            let files = segments.map { output.appendingPathComponent("\(rung)/\($0.name)") }
            #expect(try TransportPackets.discontinuities(files) == [], "\(rung): continuity counters run on from the new segment 0")
            let warnings = try await ExternalTool.require("ffmpeg", ["-v", "warning", "-i", playlist.path, "-f", "null", "-"]).standardError
            #expect(warnings.isEmpty, "\(rung): \(warnings)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("faststart").path), "the work folder is gone")
    }

    @Test func aSplitTitlesFirstSegmentIsSwappedForAFullOneToo() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 30).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let options = TranscodeOptions(ladder: Self.ladder, preset: "veryfast", fastStartPixels: 0)
        let title = try #require(try SplitTitle.plan(input: clip, outputDirectory: output.path, options: options, splitAfter: 20,
                                                     chunkSeconds: 12, groupsRungs: true, cancellation: CancellationFlag()))
        try await title.encodeTracks(cancellation: CancellationFlag())
        for chunk in title.chunks {
            try await Transcoder(options: options).encodeChunk(input: clip, outputDirectory: output.path, chunk: chunk)
        }
        let fast = try await Self.x264Settings(output.appendingPathComponent("240p/segment_000.ts"))
        #expect(fast?["subme"] == "1", "the title's first chunk (240p, which leads) starts fast: \(String(describing: fast))")
        let behind = try await Self.x264Settings(output.appendingPathComponent("360p/segment_000.ts"))
        #expect(behind?["subme"] == "2", "360p's first chunk, taken after every chunk of 240p, does not: \(String(describing: behind))")
        var counters: [String: [Int: Int]] = [:]
        for rung in ["360p", "240p"] {
            counters[rung] = try TransportPackets(Data(contentsOf: output.appendingPathComponent("\(rung)/segment_000.ts"))).lastCounters
        }
        let result = try title.finish()

        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        for rung in ["360p", "240p"] {
            let first = try await Self.x264Settings(output.appendingPathComponent("\(rung)/segment_000.ts"))
            #expect(first?["subme"] == "2" && first?["rc_lookahead"] == "10", "\(rung): the ready segment 0 is veryfast: \(String(describing: first))")
            let swapped = try TransportPackets(Data(contentsOf: output.appendingPathComponent("\(rung)/segment_000.ts")))
            #expect(swapped.lastCounters == counters[rung], "\(rung): the new segment 0 ends each PID's count where the fast one did")
        }
    }

    @Test func onlyRungsAboveTheFastStartSizeStartFastAndATitleNobodySeesGrowNever() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 8).make(in: directory.url)
        // 360p has more pixels than the fast start size, 240p fewer; each leads a ladder of its own.
        let options = TranscodeOptions(ladder: Self.ladder, preset: "veryfast", fastStartPixels: 426 * 240)
        for rung in Self.ladder {
            let published = directory.url.appendingPathComponent("published-\(rung.name)")
            let seen = directory.url.appendingPathComponent("seen-\(rung.name)")
            var alone = options
            alone.ladder = [rung]
            let sawFirst = OnceFlag()
            _ = try await Transcoder(options: alone).transcode(input: clip, outputDirectory: published.path, onPublish: { _ in
                guard sawFirst.claim() else { return }
                try? FileManager.default.copyItem(at: published, to: seen)
            })
            let first = try await Self.x264Settings(seen.appendingPathComponent("\(rung.name)/segment_000.ts"))
            #expect(first?["subme"] == (rung.name == "360p" ? "1" : "2"), "\(rung.name): only 360p starts fast: \(String(describing: first))")
            if rung.name == "240p" {
                #expect(try await Self.x264Settings(published.appendingPathComponent("240p/segment_001.ts")) == nil, "one encoder for all of 240p")
            }
        }

        let whole = directory.url.appendingPathComponent("whole")
        _ = try await Transcoder(options: options).transcode(input: clip, outputDirectory: whole.path)
        for rung in ["360p", "240p"] {
            #expect(try await Self.x264Settings(whole.appendingPathComponent("\(rung)/segment_000.ts"))?["subme"] == "2")
            #expect(try await Self.x264Settings(whole.appendingPathComponent("\(rung)/segment_001.ts")) == nil,
                    "\(rung): a title transcoded whole (vod transcode) has one encoder per rung")
        }
    }

    @Test func theStartPresetIsUsedOnlyWhereItIsFaster() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 8).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let options = TranscodeOptions(ladder: [Self.ladder[1]], preset: "superfast", firstSegmentDuration: 6, startPreset: "veryfast",
                                       fastStartPixels: 0)
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path, onPublish: { _ in })

        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let segments = try SplitTitleTests.segments(output.appendingPathComponent("240p/index.m3u8"))
        #expect(segments.map(\.duration) == [6, 2], "a first segment as long as the others: \(segments.map(\.duration))")
        let first = try await Self.x264Settings(output.appendingPathComponent("240p/segment_000.ts"))
        #expect(first?["subme"] == "1" && first?["rc_lookahead"] == "0", "superfast, as asked: \(String(describing: first))")
        #expect(try await Self.x264Settings(output.appendingPathComponent("240p/segment_001.ts")) == nil, "one encoder for the whole rung")
    }

    /// The settings x264 writes into the first IDR it encodes (its SEI), as name=value pairs; nil when no encoder
    /// started in the segment.
    static func x264Settings(_ segment: URL) async throws -> [String: String]? {
        let elementary = segment.appendingPathExtension("h264")
        _ = try await ExternalTool.require("ffmpeg", ["-v", "error", "-y", "-i", segment.path, "-map", "0:v", "-c", "copy", "-f", "h264",
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
    static func decodeTimestamps(_ playlist: URL) async throws -> [Int64] {
        let output = try await ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=dts",
                                                          "-of", "csv=p=0", playlist.path]).standardOutput
        return output.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Int64($0) } }
    }
}
