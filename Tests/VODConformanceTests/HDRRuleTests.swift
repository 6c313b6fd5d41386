import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

/// The rules of the "HDR rungs (HEVC Main10)" section: a 10-bit HEVC rung with PQ or HLG in its VUI is tagged
/// BT.2020 and says `VIDEO-RANGE=PQ` or `HLG`, every other rung says SDR, and an HDR variant always has an SDR one of
/// its resolution beside it.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct HDRRuleTests {
    /// The rules these tests are about; the fixture has no I-frame playlists, which other rules ask for.
    static let rules: Set<ConformanceRule> = [.videoColour, .videoFormat, .videoProfile, .videoLevel, .masterVideoRange,
                                              .masterHDRFallback, .masterCodecs, .fmp4SampleEntry]

    /// A rung of the fixture: its folder, encoder arguments and VIDEO-RANGE.
    struct Rung {
        let name: String
        let encoder: [String]
        let range: String
    }

    static let sdr = Rung(name: "sdr", encoder: ["-c:v", "libx264", "-profile:v", "high", "-pix_fmt", "yuv420p", "-g", "60",
                                                 "-keyint_min", "60", "-sc_threshold", "0", "-color_primaries", "bt709",
                                                 "-color_trc", "bt709", "-colorspace", "bt709"], range: "SDR")
    static let pq = hevc("pq", transfer: "smpte2084", range: "PQ")
    static let hlg = hevc("hlg", transfer: "arib-std-b67", range: "HLG")

    static func hevc(_ name: String, transfer: String, primaries: String = "bt2020", range: String) -> Rung {
        Rung(name: name, encoder: ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
                                   "-x265-params", "keyint=60:min-keyint=60:scenecut=0:log-level=none",
                                   "-color_primaries", primaries, "-color_trc", transfer, "-colorspace", "bt2020nc"], range: range)
    }

    static let pq709 = hevc("pq709", transfer: "smpte2084", primaries: "bt709", range: "PQ")

    /// Every rung of the tests in fMP4, 320×180 and 4 s each, encoded once.
    static let encoded: Result<URL, FixtureError> = Result {
        let directory = try temporaryDirectory()
        for rung in [sdr, pq, hlg, pq709] {
            let folder = directory.appendingPathComponent(rung.name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "4"] + rung.encoder
                + ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename",
                   "init.mp4", "-hls_segment_filename", folder.path + "/segment_%03d.m4s", folder.path + "/index.m3u8"])
        }
        return directory
    }.mapError { FixtureError(message: "\($0)") }

    /// A title of copies of the encoded `rungs`, with a master playlist whose CODECS come from each init segment's
    /// SPS and whose VIDEO-RANGE is each rung's.
    static func title(_ rungs: [Rung]) throws -> URL {
        let directory = try temporaryDirectory()
        var master = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for rung in rungs {
            let folder = directory.appendingPathComponent(rung.name)
            try FileManager.default.copyItem(at: try encoded.get().appendingPathComponent(rung.name), to: folder)
            let initSegment = FragmentedInit(bytes: try [UInt8](Data(contentsOf: folder.appendingPathComponent("init.mp4"))))
            let codecs = try #require(initSegment.tracks.first?.parsedSPS?.codecString)
            master.append("#EXT-X-STREAM-INF:BANDWIDTH=400000,AVERAGE-BANDWIDTH=300000,RESOLUTION=320x180,FRAME-RATE=30.000,"
                + "CODECS=\"\(codecs)\",VIDEO-RANGE=\(rung.range)")
            master.append("\(rung.name)/index.m3u8")
        }
        try Data((master.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("master.m3u8"))
        return directory
    }

    static func check(_ directory: URL) -> ConformanceReport {
        HLSConformance.check(masterURL: directory.appendingPathComponent("master.m3u8"))
    }

    @Test func pqAndHLGBesideSDRConform() throws {
        let directory = try Self.title([Self.sdr, Self.pq, Self.hlg])
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = Self.check(directory)
        #expect(report.violations.filter { Self.rules.contains($0.rule) }.map(\.description) == [])
        let ranges = report.measurements.rungs.map { $0.sps?.hdrRange }
        #expect(ranges == [nil, "PQ", "HLG"])
        #expect(report.measurements.rungs.map { $0.sps?.codecString.hasPrefix("hvc1.2.4.L") } == [false, true, true])
    }

    @Test func anHDRRungSaidToBeSDRAndAnSDRRungSaidToBeHDRAreCaught() throws {
        let directory = try Self.title([Self.sdr, Self.pq])
        defer { try? FileManager.default.removeItem(at: directory) }
        let master = directory.appendingPathComponent("master.m3u8")
        let text = try String(contentsOf: master, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "VIDEO-RANGE=PQ", with: "VIDEO-RANGE=HLG").utf8).write(to: master)
        let report = Self.check(directory)
        #expect(report.brokenRules.intersection(Self.rules) == [.masterVideoRange])
        #expect(report.violations(of: .masterVideoRange).map(\.message) == [
            "variant pq/index.m3u8 (line 6): VIDEO-RANGE=HLG where the rung's 10-bit HEVC with transfer 16 calls for VIDEO-RANGE=PQ",
        ])
    }

    @Test func anHDRVariantWithoutAnSDROneOfItsSizeIsCaught() throws {
        let directory = try Self.title([Self.pq])
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = Self.check(directory)
        #expect(report.brokenRules.intersection(Self.rules) == [.masterHDRFallback])
        #expect(report.violations(of: .masterHDRFallback).first?.message.hasSuffix("PQ at 320x180 has no SDR variant of the same resolution") == true)
    }

    /// PQ in BT.709 primaries is not HDR10: the rung is flagged for its colour, not taken for SDR.
    @Test func anHDRRungInBT709PrimariesIsCaught() throws {
        let directory = try Self.title([Self.sdr, Self.pq709])
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = Self.check(directory)
        #expect(report.brokenRules.intersection(Self.rules) == [.videoColour])
        #expect(report.violations(of: .videoColour).map(\.message) == ["colour primaries 1 (BT.709) where BT.2020 (9) for HDR is required"])
    }
}
