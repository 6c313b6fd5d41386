import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

/// The rules of the "Picture" section: SDR BT.709 in the SPS VUI and in VIDEO-RANGE, limited range, square pixels.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct PictureRuleTests {
    /// A one-rung title, 160x120 and 4 s, encoded with `change` made to the conformant settings.
    private func title(_ change: (inout RungSpec) -> Void) throws -> TestTitle {
        var spec = RungSpec(name: "picture", width: 160, height: 120, seconds: 4)
        change(&spec)
        return try TestTitle.make([spec])
    }

    @Test func conformantRungsAreTaggedBT709LimitedSquare() throws {
        let report = try TestTitle.conformant.get().check()
        for rung in report.measurements.rungs {
            let sps = try #require(rung.sps)
            #expect([sps.colourPrimaries, sps.transferCharacteristics, sps.matrixCoefficients] == [1, 1, 1])
            #expect(!sps.fullRange)
            #expect(sps.sampleAspectRatio?.isSquare == true)
        }
        #expect(report.brokenRules.isDisjoint(with: [.videoColour, .videoRange, .videoSAR, .masterVideoRange]))
    }

    @Test func hlgTaggedRungIsCaught() throws {
        let report = try title { $0.colour = ["-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc"] }.check()
        #expect(report.brokenRules == [.videoColour])
        #expect(report.violations.map(\.message) == [
            "colour primaries 9 (BT.2020), transfer 18 (HLG), matrix 9 (BT.2020 non-constant) where BT.709 (1) is required",
        ])
    }

    @Test func pqTransferAloneIsCaught() throws {
        let report = try title { $0.colour = ["-color_primaries", "bt709", "-color_trc", "smpte2084", "-colorspace", "bt709"] }.check()
        #expect(report.violations.map(\.message) == ["transfer 16 (PQ) where BT.709 (1) is required"])
    }

    @Test func missingColourDescriptionIsCaught() throws {
        let report = try title { $0.colour = [] }.check()
        #expect(report.brokenRules == [.videoColour])
        #expect(report.measurements.rungs.first?.sps?.colourPrimaries == nil)
        #expect(report.violations.first?.message.contains("no colour description") == true)
    }

    @Test func fullRangeRungIsCaught() throws {
        let report = try title { $0.extra = ["-color_range", "pc"] }.check()
        #expect(report.brokenRules == [.videoRange])
        #expect(report.violations(of: .videoRange).map(\.file) == ["picture/index.m3u8"])
    }

    /// 64:45 is caught; the same SPS rewritten to aspect_ratio_idc 255 with 45:45 is square and passes.
    /// At 320x240 x264's SPS has sar_width and sar_height on byte boundaries, so the rewrite is a byte replacement.
    @Test func anamorphicPixelsAreCaughtAndEqualExplicitValuesPass() throws {
        let title = try title { spec in
            (spec.width, spec.height) = (320, 240)
            spec.extra = ["-vf", "setsar=64/45"]
        }
        let report = title.check()
        #expect(report.brokenRules == [.videoSAR])
        #expect(report.violations.first?.message.contains("64:45 (aspect_ratio_idc 255)") == true)
        let path = title.url("picture/segment_000.ts")
        let bytes = try Data(contentsOf: path)
        let anamorphic = Data([0xFF, 0x00, 0x40, 0x00, 0x2D])
        #expect(bytes.ranges(of: anamorphic).count == 2)
        try bytes.replacing(anamorphic, with: Data([0xFF, 0x00, 0x2D, 0x00, 0x2D])).write(to: path)
        let square = title.check()
        #expect(square.measurements.rungs.first?.sps?.sampleAspectRatio == SampleAspectRatio(width: 45, height: 45))
        #expect(square.violations == [])
    }

    @Test func missingVideoRangeIsCaughtOnEveryVariant() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace(",VIDEO-RANGE=SDR", with: "", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.masterVideoRange])
        #expect(report.violations.count == 2)
        #expect(report.violations.allSatisfy { $0.message.hasSuffix("VIDEO-RANGE is missing where SDR is required") })
    }

    @Test func hdrVideoRangeOnAnH264RungIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("avc1.64000d,mp4a.40.2\",VIDEO-RANGE=SDR", with: "avc1.64000d,mp4a.40.2\",VIDEO-RANGE=PQ", in: "master.m3u8")
        try title.replace("avc1.64000b,mp4a.40.2\",VIDEO-RANGE=SDR", with: "avc1.64000b,mp4a.40.2\",VIDEO-RANGE=HLG", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.masterVideoRange])
        let messages = report.violations.map(\.message)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.contains("variant 240p/index.m3u8") && $0.contains("VIDEO-RANGE=PQ on an H.264 rung") })
        #expect(messages.contains { $0.contains("variant 120p/index.m3u8") && $0.contains("VIDEO-RANGE=HLG on an H.264 rung") })
    }

    @Test func quotedVideoRangeIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("avc1.64000b,mp4a.40.2\",VIDEO-RANGE=SDR", with: "avc1.64000b,mp4a.40.2\",VIDEO-RANGE=\"SDR\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.masterVideoRange])
        #expect(report.violations.first?.message.contains("quoted") == true)
    }
}
