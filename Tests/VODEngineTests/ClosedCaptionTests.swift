import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODTestSupport

/// CEA-608 captions carried in the video (A/53 user data) stay in every rung, are announced in the master and
/// become a WebVTT rendition whose text is the source's.
@Suite("Closed captions", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct ClosedCaptionTests {
    static let captions = [
        ClosedCaptionFixture.Caption(rows: ["HELLO, VIEWERS", "AT HOME."], shownAt: 45, erasedAt: 120),
        ClosedCaptionFixture.Caption(rows: ["SECOND CAPTION"], shownAt: 150, erasedAt: nil),
    ]
    /// The text of each caption, as a viewer reads it.
    static let texts = ["HELLO, VIEWERS\nAT HOME.", "SECOND CAPTION"]
    /// Two rungs below the 960×540 source: both scaled, the smaller from the larger's picture.
    static let ladder = [
        Rung(name: "360p", width: 640, height: 360, bitrate: 600_000),
        Rung(name: "180p", width: 320, height: 180, bitrate: 200_000),
    ]
    static let frames = 240

    /// Where each caption is shown and erased (nil: the title's end), in output pictures.
    static let shown: [(Int, Int?)] = [(45, 120), (150, nil)]

    /// A broadcast-like MPEG-TS: the captioned H.264 with English AAC sound as long as the pictures.
    static func broadcast(in directory: TemporaryDirectory, width: Int32 = 960, height: Int32 = 540, frames: Int = ClosedCaptionTests.frames,
                          captions: [ClosedCaptionFixture.Caption] = ClosedCaptionTests.captions, dtvcc: [Int: [UInt8]] = [:]) async throws -> String {
        let video = directory.url.appendingPathComponent("captioned-video.ts").path
        try ClosedCaptionFixture.make(video, width: width, height: height, frames: frames, captions: captions, dtvcc: dtvcc)
        let path = directory.url.appendingPathComponent("broadcast.ts").path
        let seconds = Double(frames) * 1001 / 30000
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-i", video, "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", "-metadata:s:a:0", "language=eng", path,
        ])
        return path
    }

    @Test func captionsOfAnMPEGTSAreKeptAnnouncedAndTurnedIntoWebVTT() async throws {
        let directory = try TemporaryDirectory()
        let source = try await Self.broadcast(in: directory)
        #expect(try await Self.captionTexts(readBy: source) == Self.texts, "ffmpeg reads the fixture's captions")
        let result = try await transcodeAndPlay(source, in: directory, ladder: Self.ladder)
        try await Self.expectCaptions(in: result, spanning: (3, "SECOND CAPTION"))
    }

    /// The web stream also carries CEA-708 service 1 beside CEA-608, in a DTVCC packet cut over two pictures.
    @Test func captionsOfAFragmentedMP4AreKeptAnnouncedAndTurnedIntoWebVTT() async throws {
        let directory = try TemporaryDirectory()
        let packet = ClosedCaptionFixture.dtvccPacket(service: 1, text: "HELLO", sequence: 0)
        let broadcast = try await Self.broadcast(in: directory, dtvcc: [30: Array(packet.prefix(6)), 31: Array(packet.dropFirst(6))])
        let source = directory.url.appendingPathComponent("web.mp4").path
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-i", broadcast, "-c", "copy", "-bsf:a", "aac_adtstoasc",
            "-movflags", "frag_keyframe+empty_moov+default_base_moof", source,
        ])
        let result = try await transcodeAndPlay(source, in: directory, ladder: Self.ladder)
        try await Self.expectCaptions(in: result, services: [1], spanning: (3, "SECOND CAPTION"))
    }

    /// A split title's chunks join at pictures 60 and 420, and a second attempt at its middle chunk goes on at
    /// picture 240, after the segment its first attempt's manifest lists: the first caption is loaded across the
    /// first join, the second shown across the attempts' join, the third across the last join; a DTVCC packet of
    /// service 2 is cut by the attempts' join. The captions come out as one transcode of the whole gives them.
    @Test func captionsOfASplitTitleAreReadAcrossItsJoins() async throws {
        let directory = try TemporaryDirectory()
        let captions = [
            ClosedCaptionFixture.Caption(rows: ["FIRST CAPTION"], shownAt: 70, erasedAt: 200),
            ClosedCaptionFixture.Caption(rows: ["ACROSS THE JOIN"], shownAt: 225, erasedAt: 260),
            ClosedCaptionFixture.Caption(rows: ["THIRD CAPTION"], shownAt: 400, erasedAt: 440),
            ClosedCaptionFixture.Caption(rows: ["THE END"], shownAt: 500, erasedAt: nil),
        ]
        let cutPacket = ClosedCaptionFixture.dtvccPacket(service: 2, text: "JOIN", sequence: 1)
        let dtvcc = [100: ClosedCaptionFixture.dtvccPacket(service: 1, text: "HELLO", sequence: 0),
                     239: Array(cutPacket.prefix(3)), 240: Array(cutPacket.dropFirst(3))]
        let source = try await Self.broadcast(in: directory, width: 320, height: 180, frames: 600, captions: captions, dtvcc: dtvcc)
        let ladder = [Rung(name: "180p", width: 320, height: 180, bitrate: 200_000), Rung(name: "90p", width: 160, height: 90, bitrate: 100_000)]
        let output = directory.url.appendingPathComponent("split")
        let options = TranscodeOptions(ladder: ladder, preset: "superfast", shortSegments: 1)
        let title = try #require(try SplitTitle.plan(input: source, outputDirectory: output.path, options: options,
                                                     splitAfter: 10, chunkSeconds: 12, cancellation: CancellationFlag()))
        #expect(title.chunks.map(\.startFrame) == [0, 60, 420] && title.chunks.map(\.firstSegment) == [0, 1, 3])
        try await title.encodeTracks(cancellation: CancellationFlag())
        for index in [2, 0, 1] {
            try await Transcoder(options: options).encodeChunk(input: source, outputDirectory: output.path, chunk: title.chunks[index])
        }
        // A first attempt at chunk 1 that died after closing segment 1 (pictures 60 to 239) in every rung.
        let whole = try #require(try ChunkManifest.read(from: output, index: 1))
        try ChunkManifest(index: 1, complete: false, renditions: whole.renditions.map { $0.prefix(1) },
                          captions: CaptionedPicture.encode(CaptionedPicture.decode(try #require(whole.captions)).filter { $0.frame < 240 }))
            .write(to: output)
        for rung in ladder { try FileManager.default.removeItem(at: output.appendingPathComponent("\(rung.name)/segment_002.ts")) }
        try await Transcoder(options: options).encodeChunk(input: source, outputDirectory: output.path, chunk: title.chunks[1])
        #expect(try ChunkManifest.read(from: output, index: 1)?.captions == whole.captions,
                "the second attempt records the captions of the pictures after the first's, each once")

        let result = try title.finish()
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        try await Self.expectCaptions(in: result, ladder: ladder, texts: captions.map { $0.rows.joined(separator: "\n") },
                                      shown: captions.map { ($0.shownAt, $0.erasedAt) }, services: [1, 2],
                                      spanning: (2, "ACROSS THE JOIN"))
    }

    /// CEA-708 without CEA-608 (CC1 is padding throughout), into fMP4 segments: the services are announced, none
    /// becomes WebVTT, and `vod validate` finds the captions in the fMP4 samples' SEI.
    @Test func captionsInCEA708AloneAreAnnouncedWithoutWebVTT() async throws {
        let directory = try TemporaryDirectory()
        let dtvcc = [10: ClosedCaptionFixture.dtvccPacket(service: 3, text: "ONLY 708", sequence: 0),
                     40: ClosedCaptionFixture.dtvccPacket(service: 12, text: "EXTENDED", sequence: 1)]
        let source = try await Self.broadcast(in: directory, width: 320, height: 180, frames: 60, captions: [], dtvcc: dtvcc)
        let result = try await Transcoder(options: TranscodeOptions(ladder: [Self.ladder[1]], preset: "superfast", segmentFormat: .fmp4))
            .transcode(input: source, outputDirectory: directory.url.appendingPathComponent("out").path)
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let lines = try String(contentsOf: result.masterPlaylist, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS") } == [3, 12].map {
            #"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English (Service \#($0))",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,INSTREAM-ID="SERVICE\#($0)""#
        })
        #expect(!lines.contains { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") })
        #expect(lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.allSatisfy { $0.contains(#"CLOSED-CAPTIONS="cc""#) })
        #expect(result.tracks.first { $0.type == "video" }?.closedCaptions == [3, 12].map {
            ClosedCaptionListing(instreamID: "SERVICE\($0)", language: "en", rendition: "English (Service \($0))", hasWebVTT: false)
        })
    }

    /// The HEVC rungs carry the captions too, which FFmpeg 5.1's libx265 cannot write (`HEVCCaptions`): an fMP4 title
    /// with an HEVC ladder, and an MPEG-TS title of a source tagged HLG, whose HDR rung is HEVC in fMP4 beside the TS
    /// one. `vod validate` passes, every variant names the captions, and ffmpeg reads the source's text from every
    /// HEVC rung.
    @Test(arguments: [false, true])
    func captionsReachTheHEVCAndHDRRungs(hdr: Bool) async throws {
        let directory = try TemporaryDirectory()
        let frames = 120
        let captions = [ClosedCaptionFixture.Caption(rows: ["IN EVERY RUNG"], shownAt: 30, erasedAt: 90)]
        var source = try await Self.broadcast(in: directory, width: 320, height: 180, frames: frames, captions: captions)
        var options = TranscodeOptions(ladder: [Self.ladder[1]], preset: "superfast", segmentFormat: .fmp4, codecs: [.h264, .hevc])
        if hdr {
            source = directory.url.appendingPathComponent("hlg.ts").path
            try await ExternalTool.require("ffmpeg", [
                "-v", "error", "-i", directory.url.appendingPathComponent("broadcast.ts").path, "-c", "copy",
                "-bsf:v", "h264_metadata=colour_primaries=9:transfer_characteristics=18:matrix_coefficients=9", source,
            ])
            options = TranscodeOptions(ladder: [Self.ladder[1]], preset: "superfast")
        }
        let result = try await Transcoder(options: options)
            .transcode(input: source, outputDirectory: directory.url.appendingPathComponent("out").path)
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let hevc = hdr ? "180p-hdr" : "180p-hevc"
        #expect(result.variants.map(\.name) == ["180p", hevc])
        let lines = try String(contentsOf: result.masterPlaylist, encoding: .utf8).split(separator: "\n")
        let variants = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == 2 && variants.allSatisfy { $0.contains(#"CLOSED-CAPTIONS="cc""#) }, "\(variants)")
        let folder = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent(hevc)
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".m4s") }.sorted()
        let whole = try (["init.mp4"] + segments).reduce(into: Data()) { $0 += try Data(contentsOf: folder.appendingPathComponent($1)) }
        let joined = directory.url.appendingPathComponent("\(hevc).mp4")
        try whole.write(to: joined)
        #expect(try await Self.captionTexts(readBy: joined.path) == ["IN EVERY RUNG"], "\(hevc) carries the source's captions")
    }

    @Test func aTitleWithoutCaptionsAnnouncesNone() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 180, duration: 2).make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory, ladder: Self.ladder)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(!master.contains("CLOSED-CAPTIONS") && !master.contains("TYPE=SUBTITLES"))
        #expect(result.tracks.first { $0.type == "video" }?.closedCaptions == [])
        #expect(result.tracks.filter { $0.type != "video" }.allSatisfy { $0.closedCaptions == nil })

        // vod validate refuses a master that announces captions the pictures do not carry.
        var lines = master.split(separator: "\n").map(String.init)
        lines.insert(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC1""#, at: 3)
        lines = lines.map { $0.hasPrefix("#EXT-X-STREAM-INF:") ? $0 + #",CLOSED-CAPTIONS="cc""# : $0 }
        let altered = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("altered.m3u8")
        try (lines.joined(separator: "\n") + "\n").write(to: altered, atomically: true, encoding: .utf8)
        #expect(HLSConformance.check(masterURL: altered).violations.map(\.rule) == [.captionsPresent])
    }

    /// Every rung carries the captions in every segment (ffprobe and ffmpeg read them back), the master announces
    /// CC1 and the CEA-708 `services` on every variant, `tracks` lists them, and the WebVTT rendition's cues are the
    /// source's `texts` at the source's times (`shown`), the cue across the cut before segment `spanning.segment`
    /// in that segment too.
    static func expectCaptions(in result: TranscodeResult, ladder: [Rung] = ClosedCaptionTests.ladder,
                               texts: [String] = ClosedCaptionTests.texts, shown: [(Int, Int?)] = ClosedCaptionTests.shown, services: [Int] = [],
                               spanning: (segment: Int, text: String)) async throws {
        let folder = result.masterPlaylist.deletingLastPathComponent()
        for rung in ladder {
            let segments = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(rung.name).path)
                .filter { $0.hasSuffix(".ts") }.sorted()
            for segment in segments {
                let probe = try await ExternalTool.require("ffprobe", [
                    "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=closed_captions",
                    "-of", "default=noprint_wrappers=1", folder.appendingPathComponent("\(rung.name)/\(segment)").path,
                ])
                // ffprobe learns of the captions by decoding the pictures (`-count_frames`).
                #expect(probe.standardOutput.split(separator: "\n").first == "closed_captions=1",
                        "\(rung.name)/\(segment): \(probe.standardOutput)")
            }
            let whole = folder.appendingPathComponent("\(rung.name)-whole.ts")
            let data = try segments.reduce(into: Data()) { $0 += try Data(contentsOf: folder.appendingPathComponent("\(rung.name)/\($1)")) }
            try data.write(to: whole)
            #expect(try await captionTexts(readBy: whole.path) == texts, "\(rung.name) carries the source's captions")
        }
        let lines = try String(contentsOf: result.masterPlaylist, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS") } == [
            #"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English (CC1)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,INSTREAM-ID="CC1""#,
        ] + services.map {
            #"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English (Service \#($0))",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,INSTREAM-ID="SERVICE\#($0)""#
        })
        #expect(lines.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") } == [
            #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (CC1)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="subtitles_0/index.m3u8""#,
        ])
        let variants = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == ladder.count && variants.allSatisfy { $0.contains(#"CLOSED-CAPTIONS="cc""#) })
        #expect(result.tracks.first { $0.type == "video" }?.closedCaptions
                    == [ClosedCaptionListing(instreamID: "CC1", language: "en", rendition: "English (CC1)", hasWebVTT: true)]
                    + services.map { ClosedCaptionListing(instreamID: "SERVICE\($0)", language: "en", rendition: "English (Service \($0))",
                                                          hasWebVTT: false) })

        let vtt = try String(contentsOf: folder.appendingPathComponent("subtitles_0/subtitles.vtt"), encoding: .utf8)
        let cues = vtt.components(separatedBy: "\n\n").dropFirst().map { $0.split(separator: "\n", maxSplits: 1).map(String.init) }
        #expect(cues.map { $0.last?.trimmingCharacters(in: .newlines) } == texts, "the WebVTT text is the source's")
        // Shown from the End Of Caption's picture until the Erase Displayed Memory's; the last until the title ends.
        let frame = 1001.0 / 30000
        for (cue, (start, end)) in zip(cues, shown) {
            let (from, to) = (Double(start) * frame, end.map { Double($0) * frame } ?? result.duration)
            let times = cue[0].components(separatedBy: " --> ").map(seconds)
            #expect(abs(times[0] - from) < 0.002 && abs(times[1] - to) < 0.002, "\(cue[0]) shows \(from) to \(to)")
        }
        let segment = String(format: "subtitles_0/segment_%03d.vtt", spanning.segment)
        let after = try String(contentsOf: folder.appendingPathComponent(segment), encoding: .utf8)
        #expect(after.contains(spanning.text), "the caption across the cut is in \(segment) too")

        // vod validate's caption rules see a variant that does not name the group, and an announcement the
        // pictures do not back.
        let altered = folder.appendingPathComponent("altered.m3u8")
        var master = lines
        let first = try #require(master.firstIndex { $0.hasPrefix("#EXT-X-STREAM-INF:") })
        master[first] = master[first].replacingOccurrences(of: #"CLOSED-CAPTIONS="cc","#, with: "")
        try (master.joined(separator: "\n") + "\n").write(to: altered, atomically: true, encoding: .utf8)
        #expect(HLSConformance.check(masterURL: altered).violations.map(\.rule) == [.captionsGroup])
    }

    /// The caption texts ffmpeg reads from the A/53 data of the video of `path` (lavfi's `movie` with `subcc`).
    static func captionTexts(readBy path: String) async throws -> [String] {
        let output = try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "movie=\(path)[out0+subcc]", "-map", "0:s", "-f", "webvtt", "-",
        ]).standardOutput
        return output.components(separatedBy: "\n\n").dropFirst().compactMap { block in
            let lines = block.split(separator: "\n").map(String.init).drop { !$0.contains(" --> ") }.dropFirst()
            return lines.isEmpty ? nil : lines.joined(separator: "\n")
        }
    }

    /// `hh:mm:ss.ttt` or `mm:ss.ttt` in seconds.
    static func seconds(_ timestamp: String) -> Double {
        timestamp.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? 0) }
    }
}
