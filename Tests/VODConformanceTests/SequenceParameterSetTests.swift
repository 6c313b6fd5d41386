import Testing
@testable import VODConformance

/// SPS NAL units written by x264; the expected values are those ffmpeg's `trace_headers` bitstream filter prints.
@Suite(.timeLimit(.minutes(2))) struct SequenceParameterSetTests {
    @Test func highProfile1080pWithCropping() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("67640028acd940780227e5c044000003000400000300c83c60c658"))
        #expect(sps.profileIDC == 100)
        #expect(sps.constraintFlags == 0)
        #expect(sps.levelIDC == 40)
        #expect(sps.width == 1920)
        #expect(sps.height == 1080)
        #expect(sps.chromaFormatIDC == 1)
        #expect(sps.bitDepthLuma == 8)
        #expect(sps.frameMBsOnly)
        #expect(sps.vuiFrameRate == 25)
        #expect(sps.codecString == "avc1.640028")
        #expect(sps.levelAllows(frameRate: 30))
        #expect(!sps.levelAllows(frameRate: 60))
    }

    @Test func constrainedBaselineKeepsDefaultChromaAndDepth() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("6742c00bda0b13b011000003000100000300300f142aa0"))
        #expect(sps.profileIDC == 66)
        #expect(sps.constraintFlags == 0xC0)
        #expect(sps.levelIDC == 11)
        #expect((sps.width, sps.height) == (176, 144))
        #expect(sps.chromaFormatIDC == 1)
        #expect(sps.bitDepthLuma == 8)
        #expect(sps.vuiFrameRate == 24)
        #expect(sps.codecString == "avc1.42c00b")
    }

    @Test func high10ReportsTenBitDepth() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("676e000da6cb40a0fd8088000003000800000301e078a155"))
        #expect(sps.profileIDC == 110)
        #expect(sps.bitDepthLuma == 10)
        #expect(sps.bitDepthChroma == 10)
        #expect((sps.width, sps.height) == (320, 240))
        #expect(sps.codecString == "avc1.6e000d")
    }

    @Test func interlacedMainProfileCropsInFieldUnits() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("674d4015f40a087e5c0440000003004000000f07c50aa8"))
        #expect(sps.profileIDC == 77)
        #expect(sps.constraintFlags == 0x40)
        #expect(!sps.frameMBsOnly)
        #expect((sps.width, sps.height) == (320, 240))
        #expect(sps.codecString == "avc1.4d4015")
    }

    @Test func truncatedOrForeignNALUnitsThrow() throws {
        let full = hex("67640028acd940780227e5c044000003000400000300c83c60c658")
        for length in 1..<12 {
            #expect(throws: ConformanceError.self) { try SequenceParameterSet(nalUnit: Array(full.prefix(length))) }
        }
        #expect(throws: ConformanceError.self) { try SequenceParameterSet(nalUnit: hex("68ce0fc8")) }
        #expect(throws: ConformanceError.self) { try SequenceParameterSet(nalUnit: []) }
    }

    @Test func removesEmulationPreventionBytes() {
        let unit = NALUnit(type: 7, bytes: hex("67000003010000030000")[...])
        #expect(unit.rbsp == [0, 0, 1, 0, 0, 0, 0])
    }
}
