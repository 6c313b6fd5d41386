import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODTestSupport

/// `--codecs h264,hevc`: an HEVC ladder in fMP4 beside the H.264 one, in the same master, each rung with its own
/// measured BANDWIDTH and CODECS from its bitstream, checked by `vod validate`'s rules and decoded by ffmpeg.
@Suite("HEVC ladder", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct HEVCLadderTests {
    @Test func anHEVCLadderBesideTheH264OneConformsAndDecodes() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 5).make(in: directory.url)
        let h264Only = try await Transcoder(options: TranscodeOptions(ladder: FragmentedSegmentTests.ladder, preset: "superfast",
                                                                      segmentFormat: .fmp4))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("h264").path)
        let result = try await Transcoder(options: TranscodeOptions(ladder: FragmentedSegmentTests.ladder, preset: "superfast",
                                                                    segmentFormat: .fmp4, codecs: [.h264, .hevc], hevcPreset: "ultrafast"))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("both").path)

        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        #expect(result.variants.map(\.name).sorted() == ["240p", "240p-hevc", "360p", "360p-hevc"])
        let folder = result.masterPlaylist.deletingLastPathComponent()
        for variant in result.variants where variant.name.hasSuffix("-hevc") {
            #expect(variant.codecs.hasPrefix("hvc1.1.6.L"), "\(variant.name): \(variant.codecs)")
            let twin = try #require(result.variants.first { $0.name + "-hevc" == variant.name })
            #expect((variant.width, variant.height) == (twin.width, twin.height))
            #expect(variant.segmentCount == twin.segmentCount)
            let joined = directory.url.appendingPathComponent("\(variant.name).mp4")
            try FragmentedSegmentTests.joined(variant.name, 1, in: folder).write(to: joined)
            let probe = try await ExternalTool.require("ffprobe", [
                "-v", "error", "-show_entries", "stream=codec_name,codec_tag_string,profile,pix_fmt,color_primaries,color_transfer,color_space",
                "-of", "csv=p=0", joined.path])
            #expect(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "hevc,Main,hvc1,yuv420p,bt709,bt709,bt709")
        }
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(master.matches(of: /CODECS="hvc1/).count == 4, "two variants and two I-frame streams")
        let twins = [("360p", "360p-hevc"), ("240p", "240p-hevc")]
        for (h264, hevc) in twins {
            #expect(try Self.durations(h264, in: folder) == Self.durations(h264, in: h264Only.masterPlaylist.deletingLastPathComponent()),
                    "\(h264): the segments of a title without HEVC")
            #expect(result.variants.first { $0.name == h264 }?.codecs == h264Only.variants.first { $0.name == h264 }?.codecs)
            #expect(try Self.durations(hevc, in: folder) == Self.durations(h264, in: folder), "\(hevc): the H.264 twin's segments")
        }
        for program in result.variants.indices {
            #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: program) == "")
        }
        let manifest = try String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        #expect(manifest.matches(of: /<AdaptationSet[^>]*contentType="video"/).count == 2, "one adaptation set per codec")
    }

    /// Every chunk of a split title encodes the HEVC twins too, and their init segments agree, as the H.264 ones do.
    @Test func aSplitTitleStitchesItsHEVCRungs() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 8).make(in: directory.url)
        var options = SplitTitleTests.options
        options.segmentFormat = .fmp4
        options.codecs = [.h264, .hevc]
        options.hevcPreset = "ultrafast"
        let title = try await SplitTitleTests.encodeEveryChunk(of: clip, into: directory.url.appendingPathComponent("out"),
                                                               splitAfter: 2, chunkSeconds: 4, options: options)
        #expect(title.chunks.count >= 2)
        #expect(title.chunks.allSatisfy { $0.rungs.map(\.codec) == [.h264, .h264, .hevc, .hevc] })
        let result = try await title.finish()
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        #expect(result.variants.filter { $0.codecs.hasPrefix("hvc1.") }.map(\.name).sorted() == ["240p-hevc", "360p-hevc"])
        for program in result.variants.indices {
            #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: program) == "")
        }
    }

    /// HLS carries HEVC in fMP4 only: a title in MPEG-TS gets the H.264 ladder alone, whatever the codecs asked.
    @Test func aTitleInMPEGTSGetsNoHEVC() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 3).make(in: directory.url)
        let result = try await Transcoder(options: TranscodeOptions(ladder: [FragmentedSegmentTests.ladder[1]], preset: "superfast",
                                                                    codecs: [.h264, .hevc]))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("ts").path)
        #expect(result.variants.map(\.name) == ["240p"])
        #expect(result.variants.allSatisfy { $0.codecs.hasPrefix("avc1.") })
    }

    @Test func theHEVCTwinOfARungIsItsSizeAtLessBitrate() throws {
        let plan = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 1920, displayHeight: 1080)
        let twins = LadderPlanner.withTwins(plan, codecs: [.h264, .hevc])
        #expect(twins.map(\.name) == ["720p", "1080p", "720p-hevc", "1080p-hevc"])
        #expect(twins.map(\.codec) == [.h264, .h264, .hevc, .hevc])
        #expect(twins[2...].map(\.bitrate) == [560_000, 1_960_000])
        #expect(LadderPlanner.withTwins(plan, codecs: [.h264]) == plan)
        let old = try JSONDecoder().decode(PlannedRung.self, from: Data(#"{"name":"720p","width":1280,"height":720,"bitrate":800000}"#.utf8))
        #expect(old.codec == .h264, "a chunk queued before rungs had a codec")
    }

    /// The EXTINF durations of a rung's media playlist, in order.
    static func durations(_ rung: String, in folder: URL) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("\(rung)/index.m3u8"), encoding: .utf8)
            .matches(of: /#EXTINF:([0-9.]+),/).map { String($0.1) }
    }
}
