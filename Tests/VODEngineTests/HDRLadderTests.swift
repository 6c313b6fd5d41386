import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODTestSupport

/// HDR kept for HDR screens: a title from a PQ or HLG source gets an HEVC Main10 rung (fMP4, also in an MPEG-TS
/// title) keeping the source's transfer, primaries and light levels, beside the tone-mapped SDR ladder, which does
/// not change because of it.
@Suite("HDR ladder", .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct HDRLadderTests {
    /// fMP4 titles keeping HDR on the two-rung test ladder (360p, 240p), or on `ladder`.
    static func options(hdr: HDRPolicy = .keep, format: SegmentFormat = .fmp4,
                        ladder: [Rung] = FragmentedSegmentTests.ladder) -> TranscodeOptions {
        TranscodeOptions(ladder: ladder, preset: "superfast", segmentFormat: format, hdr: hdr)
    }

    /// The test ladder's 360p rung alone, for tests about the HDR rung rather than the ladder.
    static let oneRung = [FragmentedSegmentTests.ladder[0]]

    /// HDR10: PQ with its light levels. HLG takes the same path, checked on the rotated, split, Android and Dolby
    /// Vision sources.
    @Test func anHDR10SourceGetsAnHDRRungBesideTheSameSDRLadder() async throws {
        let (transfer, range) = ("smpte2084", "PQ")
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.hdr(transfer: transfer, duration: 3).make(in: directory.url)
        let sdrOnly = try await Transcoder(options: Self.options(hdr: .sdr))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("sdr").path)
        let result = try await Transcoder(options: Self.options())
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("kept").path)

        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        #expect(sdrOnly.variants.map(\.name).sorted() == ["240p", "360p"])
        #expect(result.variants.map(\.name).sorted() == ["240p", "360p", "360p-hdr"])
        let hdr = try await Self.expectHDRRung(of: result, named: "360p-hdr", transfer: transfer, range: range, in: directory)
        #expect(result.variants.filter { $0.name != hdr.name }.allSatisfy { $0.videoRange == "SDR" })

        let folder = result.masterPlaylist.deletingLastPathComponent()
        let joined = directory.url.appendingPathComponent("\(hdr.name).mp4")
        let sideData = try await Self.firstFrameSideData(joined.path)
        #expect(sideData.contains("max_luminance=10000000/10000") && sideData.contains("max_content=1000"),
                "the source's mastering display and light level: \(sideData)")
        // The init segment declares them too (`mdcv`, `clli`), where FFmpeg's MP4 reader and Apple's players read them.
        let declared = try MediaProber.open(path: joined.path, cancellation: CancellationFlag()).streams.compactMap(\.hdrLightLevels)
        #expect(declared == [HDRLightLevels(masterDisplay: "G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)",
                                            maxCLL: "1000,400")])

        // The SDR rungs are those of the title without HDR: the same segments, codecs and sizes (x264's threads make
        // a few bytes differ from run to run, with or without HDR).
        let sdrFolder = sdrOnly.masterPlaylist.deletingLastPathComponent()
        for name in ["240p", "360p"] {
            #expect(try HEVCLadderTests.durations(name, in: folder) == HEVCLadderTests.durations(name, in: sdrFolder))
            #expect(result.variants.first { $0.name == name }?.codecs == sdrOnly.variants.first { $0.name == name }?.codecs)
            let segments = try FileManager.default.contentsOfDirectory(atPath: sdrFolder.appendingPathComponent(name).path)
                .filter { $0.hasSuffix(".m4s") }
            #expect(segments.count >= 2)
            for file in segments {
                let kept = try Data(contentsOf: folder.appendingPathComponent("\(name)/\(file)")).count
                let alone = try Data(contentsOf: sdrFolder.appendingPathComponent("\(name)/\(file)")).count
                #expect(abs(Double(kept - alone)) <= 0.01 * Double(alone), "\(name)/\(file): \(kept) bytes against \(alone)")
            }
        }
        // Stills are SDR JPEGs: they are never taken from the HDR rung.
        #expect(try RenditionIndex(folder: folder).renditions.map(\.folder.lastPathComponent) == ["240p", "360p"])
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(master.contains(#"RESOLUTION=640x360,FRAME-RATE=30.000,CODECS="\#(hdr.codecs)",AUDIO="aac",VIDEO-RANGE=\#(range)"#))
        #expect(master.contains(#"VIDEO-RANGE=\#(range),URI="360p-hdr/iframes.m3u8""#))
        for program in result.variants.indices {
            #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: program) == "")
        }
        let manifest = try String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        #expect(manifest.contains(#"<EssentialProperty schemeIdUri="urn:mpeg:mpegB:cicp:TransferCharacteristics" value="16"/>"#))
        #expect(manifest.matches(of: /<AdaptationSet[^>]*contentType="video"/).count == 2, "the HDR rung has a set of its own")
    }

    /// A phone's portrait HDR video: the HDR rung is turned upright like the SDR ones, its 10-bit planes intact.
    @Test func aRotatedHLGPhoneClipKeepsItsHDRUpright() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip.hdr(transfer: "arib-std-b67", duration: 2)
        source.rotationTag = 90
        let clip = try await source.make(in: directory.url)
        let result = try await Transcoder(options: Self.options(ladder: Self.oneRung))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        let hdr = try await Self.expectHDRRung(of: result, named: "360p-hdr", transfer: "arib-std-b67", range: "HLG", in: directory)
        #expect((hdr.width, hdr.height) == (360, 640))
        let joined = directory.url.appendingPathComponent("\(hdr.name).mp4")
        // ffmpeg turns the source upright itself: the rung's first picture is that one, 10-bit for 10-bit.
        let filters = "scale=360:640:flags=bicubic,format=yuv420p10le"
        let ours = try await PictureMeasurements.rawFrames(["-i", joined.path], filters: "format=yuv420p10le", format: "gray")
        let upright = try await PictureMeasurements.rawFrames(["-i", clip], filters: filters, format: "gray")
        let turnedTheOtherWay = try await PictureMeasurements.rawFrames(["-i", clip], filters: "hflip,vflip," + filters, format: "gray")
        let error = PictureMeasurements.meanDifference(ours, upright)
        #expect(error < 2, "mean byte difference from the upright source \(error)")
        #expect(PictureMeasurements.meanDifference(ours, turnedTheOtherWay) > 4 * error)
    }

    /// An fMP4 title and an MPEG-TS title (whose HDR rung alone is fMP4) both keep HDR; one asked for SDR is the
    /// tone-mapped ladder alone. An HDR10 source's light levels come from the SEI of its first picture when its
    /// container declares none.
    @Test func theHDRRungIsPlannedForTitlesThatKeepHDRWithTheSourcesLightLevels() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.hdr(transfer: "smpte2084", duration: 1).make(in: directory.url)
        let file = try MediaProber.open(path: clip, cancellation: CancellationFlag())
        #expect(file.streams.compactMap(\.hdrLightLevels).isEmpty, "the MP4 muxer wrote no mdcv or clli box")
        let plan = try LadderPlanner.plan(ladder: FragmentedSegmentTests.ladder, displayWidth: 640, displayHeight: 360)
        func rungs(_ options: TranscodeOptions) throws -> [PlannedRung] {
            try TranscodeJob(input: clip, staging: directory.url, options: options, cancellation: CancellationFlag(), progress: { _ in })
                .titleRungs(plan, file: file)
        }
        let kept = try rungs(Self.options())
        #expect(kept.map(\.name) == ["240p", "360p", "360p-hdr"])
        #expect(kept.last?.lightLevels == HDRLightLevels(
            masterDisplay: "G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)", maxCLL: "1000,400"))
        #expect(try rungs(Self.options(format: .ts)) == kept)
        #expect(try rungs(Self.options(hdr: .sdr)) == plan)
    }

    /// Every chunk of a split title's HDR group keeps the HDR, and the stitched title conforms. In an MPEG-TS
    /// title the HDR rung is the one fMP4 rung, and takes its sound from the same audio renditions as the TS rungs.
    @Test(arguments: [SegmentFormat.fmp4, .ts])
    func aSplitTitleEncodesItsHDRRungInChunksOfItsOwn(format: SegmentFormat) async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.hdr(transfer: "arib-std-b67", width: 426, height: 240, duration: 6).make(in: directory.url)
        var options = Self.options(format: format, ladder: [FragmentedSegmentTests.ladder[1]])
        options.shortSegments = 1
        let title = try await SplitTitleTests.encodeEveryChunk(of: clip, into: directory.url.appendingPathComponent("out"),
                                                               splitAfter: 2, chunkSeconds: 3, options: options)
        #expect(title.chunks.count >= 4)
        let groups = Set(title.chunks.map { $0.rungs.map(\.isHDR) })
        #expect(groups == [[false], [true]], "SDR and HDR rungs never share a chunk's decode")
        let result = try await title.finish()
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        #expect(result.variants.filter { $0.videoRange == "HLG" }.map(\.name) == ["240p-hdr"])
        let folder = result.masterPlaylist.deletingLastPathComponent()
        #expect(try Self.segmentFiles(in: folder) == ["240p": [format.fileName(ofSegment: 0)], "240p-hdr": ["segment_000.m4s"]])
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(master.matches(of: /#EXT-X-STREAM-INF:[^\n]*AUDIO="aac"/).count == 2, "both variants play the audio renditions")
        let manifest = try? String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        if format == .fmp4 {
            #expect(manifest?.contains(#"<EssentialProperty schemeIdUri="urn:mpeg:mpegB:cicp:TransferCharacteristics" value="18"/>"#) == true)
        } else {
            #expect(manifest == nil, "DASH describes fMP4 titles only")
        }
        for program in result.variants.indices {
            #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: program) == "")
        }
    }

    /// The first segment's file name of each rung folder in `folder`, by rung.
    static func segmentFiles(in folder: URL) throws -> [String: [String]] {
        let rungs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.first?.isNumber == true }
        return try Dictionary(uniqueKeysWithValues: rungs.map { rung in
            (rung, try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(rung).path)
                .filter { $0.hasPrefix("segment_000.") })
        })
    }

    /// Checks the HDR rung `name` of `result`: HEVC Main10 in `hvc1`, 10-bit BT.2020 limited range with the
    /// source's `transfer`, `VIDEO-RANGE` `range`, and GStreamer plays its media playlist over HTTP. Leaves its
    /// first segment joined to its init segment as `NAME.mp4` in `directory`, and returns the variant.
    static func expectHDRRung(of result: TranscodeResult, named name: String, transfer: String, range: String,
                              in directory: TemporaryDirectory) async throws -> VariantSummary {
        let hdr = try #require(result.variants.first { $0.name == name })
        #expect(hdr.codecs.hasPrefix("hvc1.2.4.L"), "HEVC Main10: \(hdr.codecs)")
        #expect(hdr.videoRange == range)
        let folder = result.masterPlaylist.deletingLastPathComponent()
        let joined = directory.url.appendingPathComponent("\(name).mp4")
        try FragmentedSegmentTests.joined(name, 0, in: folder).write(to: joined)
        let probe = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v", "-show_entries", "stream=codec_name,profile,codec_tag_string,pix_fmt,color_range,color_space,color_transfer,color_primaries",
            "-of", "csv=p=0", joined.path])
        // A PQ rung's stream also has its light levels as side data, which ffprobe's CSV gives as one more field.
        let fields = probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.prefix(8).joined(separator: ",") == "hevc,Main 10,hvc1,yuv420p10le,tv,bt2020nc,\(transfer),bt2020")
        let play = try await IndependentPlayers.gstreamerPlay(uri: folder.appendingPathComponent(hdr.playlist).absoluteString)
        #expect(play.status == 0, "GStreamer played the HDR rung over HTTP: \(play.standardError)")
        return hdr
    }

    /// The side data ffprobe reads from the first picture of `path`.
    static func firstFrameSideData(_ path: String) async throws -> String {
        try await ExternalTool.require("ffprobe", ["-v", "error", "-show_frames", "-read_intervals", "%+#1", path]).standardOutput
    }
}
