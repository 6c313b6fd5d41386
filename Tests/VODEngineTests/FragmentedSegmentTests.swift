import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODFFmpeg
import VODTestSupport

/// A title in fMP4 (CMAF) segments: init segments, `moof`/`mdat` segments on the TS title's boundaries, I-frames
/// by byte range, checked by `vod validate`'s rules and played by ffmpeg and GStreamer; a split title joins in
/// fMP4 too; a TS title's playlists stay as they were.
@Suite("fMP4 segments", .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct FragmentedSegmentTests {
    static let ladder = [
        Rung(name: "360p", width: 640, height: 360, bitrate: 600_000),
        Rung(name: "240p", width: 426, height: 240, bitrate: 300_000),
    ]

    @Test func aClipInFMP4ConformsPlaysAndKeepsTheTSTitlesSegments() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 7).make(in: directory.url)
        let ts = try await Transcoder(options: TranscodeOptions(ladder: Self.ladder, preset: "superfast"))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("ts").path)
        let fmp4 = try await Transcoder(options: TranscodeOptions(ladder: Self.ladder, preset: "superfast", segmentFormat: .fmp4))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("fmp4").path)

        let report = HLSConformance.check(masterURL: fmp4.masterPlaylist)
        #expect(report.violations.map(\.description) == [], "every rule, the fMP4 ones included")
        let folder = fmp4.masterPlaylist.deletingLastPathComponent()
        for rung in ["360p", "240p"] {
            let media = try String(contentsOf: folder.appendingPathComponent("\(rung)/index.m3u8"), encoding: .utf8)
            let iFrames = try String(contentsOf: folder.appendingPathComponent("\(rung)/iframes.m3u8"), encoding: .utf8)
            for playlist in [media, iFrames] {
                #expect(playlist.contains("#EXT-X-VERSION:6\n") && playlist.contains("#EXT-X-MAP:URI=\"init.mp4\"\n"))
            }
            #expect(try Self.durations(media) == Self.durations(String(contentsOf: ts.masterPlaylist.deletingLastPathComponent()
                .appendingPathComponent("\(rung)/index.m3u8"), encoding: .utf8)), "\(rung): the TS title's segment boundaries")
            #expect(media.contains("segment_000.m4s") && !media.contains(".ts"))

        }
        // An init segment and a segment read as one file: one track each (CMAF), the sound an audio-only rendition.
        for (rendition, codec) in [("360p", "h264"), ("240p", "h264"), ("audio_0", "aac")] {
            let joined = directory.url.appendingPathComponent("\(rendition)-joined.mp4")
            try Self.joined(rendition, 1, in: folder).write(to: joined)
            #expect(try await IndependentPlayers.streams(at: joined.path).map(\.codec_name) == [codec])
        }
        let codecs = { (url: URL) in try String(contentsOf: url, encoding: .utf8).matches(of: /CODECS="([^"]+)"/).map { String($0.1) } }
        #expect(try codecs(fmp4.masterPlaylist) == codecs(ts.masterPlaylist), "the same CODECS as the TS title's")
        for program in fmp4.variants.indices {
            #expect(try await IndependentPlayers.decodeErrors(master: fmp4.masterPlaylist.path, program: program) == "")
        }
        let play = try await IndependentPlayers.gstreamerPlay(uri: fmp4.masterPlaylist.absoluteString)
        #expect(play.status == 0, "GStreamer played the fMP4 master: \(play.standardError)")

        // The checker sees a segment whose decode times do not follow the one before: segment 1's first tfdt, one tick on.
        let broken = directory.url.appendingPathComponent("broken")
        try FileManager.default.copyItem(at: folder, to: broken)
        let segment = broken.appendingPathComponent("240p/segment_001.m4s")
        var bytes = try Data(contentsOf: segment)
        let time = try #require(bytes.range(of: Data("tfdt".utf8))).upperBound + 11
        bytes[time] &+= 1
        try bytes.write(to: segment)
        let brokenRules = HLSConformance.check(masterURL: broken.appendingPathComponent("master.m3u8")).brokenRules
        #expect(brokenRules.contains(.fmp4DecodeTimes), "\(brokenRules)")

        // The TS title is the default path's, untouched by the fMP4 one.
        let tsMedia = try String(contentsOf: ts.masterPlaylist.deletingLastPathComponent().appendingPathComponent("360p/index.m3u8"),
                                 encoding: .utf8)
        #expect(tsMedia.hasPrefix("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:") && !tsMedia.contains("EXT-X-MAP"))
        #expect(!FileManager.default.fileExists(atPath: ts.masterPlaylist.deletingLastPathComponent().appendingPathComponent("360p/init.mp4").path))
    }

    @Test func anAudioOnlyTitleInFMP4Conforms() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.url.appendingPathComponent("tone.m4a").path
        _ = try await ExternalTool.require("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=7",
                                                     "-c:a", "aac", clip])
        let result = try await Transcoder(options: TranscodeOptions(preset: "superfast", segmentFormat: .fmp4))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let playlist = try String(contentsOf: result.masterPlaylist.deletingLastPathComponent()
            .appendingPathComponent(result.variants[0].playlist), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: 0) == "")
    }

    @Test func aSplitTitleInFMP4PlaysThroughItsJoins() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 30).make(in: directory.url)
        let output = directory.url.appendingPathComponent("split")
        let options = TranscodeOptions(ladder: Self.ladder, preset: "superfast", shortSegments: 1, segmentFormat: .fmp4)
        let title = try #require(try SplitTitle.plan(input: clip, outputDirectory: output.path, options: options,
                                                     splitAfter: 20, chunkSeconds: 12, cancellation: CancellationFlag()))
        #expect(title.chunks.map(\.firstSegment) == [0, 1, 3] && title.chunks.allSatisfy { $0.segmentFormat == .fmp4 })
        try await title.encodeTracks(cancellation: CancellationFlag())
        // A worker set to TS, and to five short segments, encodes a chunk of an fMP4 title of one short segment in
        // fMP4 and on the title's segments: the chunk carries its title's format and segment durations.
        for index in [2, 0, 1] {
            try await Transcoder(options: TranscodeOptions(ladder: Self.ladder, preset: "superfast"))
                .encodeChunk(input: clip, outputDirectory: output.path, chunk: title.chunks[index])
        }
        let result = try title.finish()
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        for rung in ["360p", "240p"] {
            let playlist = output.appendingPathComponent("\(rung)/index.m3u8")
            let frames = try await SplitTitleTests.videoTimestamps(playlist)
            // ffprobe reads the track's time scale, 15360 Hz for 30 fps: one frame is 512 ticks.
            let steps = Set(zip(frames.dropFirst(), frames).map { $0 - $1 })
            #expect(frames.count == Int((result.duration * 30).rounded()) && steps == [512],
                    "\(rung): one frame between every picture, across the joins: \(frames.count) pictures, steps \(steps)")
        }
        let play = try await IndependentPlayers.gstreamerPlay(uri: result.masterPlaylist.absoluteString)
        #expect(play.status == 0, "\(play.standardError)")
    }

    @Test func aFastStartInFMP4SwapsTheFirstSegmentWithItsInitSegment() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 8).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let published = directory.url.appendingPathComponent("published.mp4")
        let options = TranscodeOptions(ladder: Self.ladder, preset: "veryfast", fastStartPixels: 0, segmentFormat: .fmp4)
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path, onPublish: { _ in
            // The first segment as first published, read after the init segment, which is in place before it is named:
            // that of 240p, which leads and starts fast (360p joins the master later, at its own preset).
            guard !FileManager.default.fileExists(atPath: published.path) else { return }
            try? Self.joined("240p", 0, in: output).write(to: published)
        })
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let ready = directory.url.appendingPathComponent("ready.mp4")
        try Self.joined("240p", 0, in: output).write(to: ready)
        let fast = try await FastStartTests.x264Settings(published)
        let full = try await FastStartTests.x264Settings(ready)
        #expect(fast?["subme"] == "1" && full?["subme"] == "2", "published superfast, ready veryfast: \(String(describing: fast)), \(String(describing: full))")
        for program in result.variants.indices {
            #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: program) == "")
        }
    }

    /// The init segment of `rendition` followed by its segment `index`: one file that players read alone.
    static func joined(_ rendition: String, _ index: Int, in folder: URL) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent("\(rendition)/init.mp4"))
            + Data(contentsOf: folder.appendingPathComponent("\(rendition)/segment_\(String(format: "%03d", index)).m4s"))
    }

    /// The EXTINF durations of a media playlist, in order.
    static func durations(_ playlist: String) throws -> [String] {
        playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.map(String.init)
    }
}
