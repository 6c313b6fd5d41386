import Testing
@testable import VODConformance

/// The VUI of SPS NAL units x264 wrote for a 320x240 High 1.3 30 fps picture with ffmpeg's colour, range and aspect
/// options; the expected values are those ffmpeg's `trace_headers` bitstream filter prints.
extension SequenceParameterSetTests {
    /// BT.709 tags at `-vf setsar=64/45`: aspect_ratio_idc 255, sar_width 0x0040 and sar_height 0x002d on byte boundaries.
    private static let anamorphic = "6764000dacd94141fbff0040002d6a02020280000003008000001e078a14cb"
    /// `-vf setsar=64/45 -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -color_range pc
    /// -x264-params overscan=show:chromaloc=2:videoformat=pal`: every VUI part before the timing is present.
    private static let everyPart = "6764000dacd94141fbff0040002da7091009b70000030001000003003c0f142996"

    /// `-color_primaries bt709 -color_trc bt709 -colorspace bt709`.
    @Test func bt709TagsAreRead() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("6764000dacd94141fb016a02020280000003008000001e078a14cb"))
        #expect(colour(sps) == [1, 1, 1])
        #expect(!sps.fullRange)
        #expect(sps.videoFormat == 5)
        #expect(sps.aspectRatioIDC == 1)
        #expect(sps.sampleAspectRatio == SampleAspectRatio(width: 1, height: 1))
        #expect(sps.vuiFrameRate == 30)
        #expect((sps.width, sps.height) == (320, 240))
    }

    /// `-color_trc arib-std-b67 -color_primaries bt2020 -colorspace bt2020nc`.
    @Test func hlgTagsAreRead() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("6764000dacd94141fb016a12241280000003008000001e078a14cb"))
        #expect(colour(sps) == [9, 18, 9])
        #expect(!sps.fullRange)
        #expect(sps.vuiFrameRate == 30)
    }

    /// BT.709 with `-color_range pc`.
    @Test func fullRangeIsRead() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("6764000dacd94141fb016e02020280000003008000001e078a14cb"))
        #expect(sps.fullRange)
        #expect(colour(sps) == [1, 1, 1])
        #expect(sps.vuiFrameRate == 30)
    }

    /// No colour options: x264 writes no video signal type.
    @Test func untaggedVUIHasNoColourDescription() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("6764000dacd94141fb0110000003001000000303c0f1429960"))
        #expect(sps.videoFormat == nil)
        #expect(colour(sps) == [nil, nil, nil])
        #expect(!sps.fullRange)
        #expect(sps.sampleAspectRatio?.isSquare == true)
        #expect(sps.vuiFrameRate == 30)
    }

    @Test func everyVUIPartBeforeTheTimingIsReadOrSkipped() throws {
        let sps = try SequenceParameterSet(nalUnit: hex(Self.everyPart))
        #expect(sps.aspectRatioIDC == 255)
        #expect(sps.sampleAspectRatio == SampleAspectRatio(width: 64, height: 45))
        #expect(sps.sampleAspectRatio?.isSquare == false)
        #expect(sps.videoFormat == 1)
        #expect(sps.fullRange)
        #expect(colour(sps) == [9, 16, 9])
        #expect(sps.vuiFrameRate == 30)
        #expect(sps.frameMBsOnly)
    }

    /// `-vf setsar=4/3`: aspect_ratio_idc 14 of Table E-1.
    @Test func aspectRatioFromTableE1() throws {
        let sps = try SequenceParameterSet(nalUnit: hex("6764000dacd94141fb0e10000003001000000303c0f1429960"))
        #expect(sps.aspectRatioIDC == 14)
        #expect(sps.sampleAspectRatio == SampleAspectRatio(width: 4, height: 3))
    }

    /// aspect_ratio_idc 255 with equal values is square; with a zero value the ratio is unspecified.
    @Test func explicitAspectRatioEdges() throws {
        let equal = try SequenceParameterSet(nalUnit: hex(Self.anamorphic.replacingOccurrences(of: "ff0040002d", with: "ff002d002d")))
        #expect(equal.sampleAspectRatio == SampleAspectRatio(width: 45, height: 45))
        #expect(equal.sampleAspectRatio?.isSquare == true)
        let zero = try SequenceParameterSet(nalUnit: hex(Self.anamorphic.replacingOccurrences(of: "ff0040002d", with: "ff000003002d")))
        #expect(zero.aspectRatioIDC == 255)
        #expect(zero.sampleAspectRatio == nil)
        #expect(colour(zero) == [1, 1, 1])
        #expect(zero.vuiFrameRate == 30)
    }

    /// The VUI is read through time_scale, which ends in the 29th byte of this NAL unit (two emulation prevention bytes).
    @Test func vuiCutBeforeTheEndOfTheTimingThrows() throws {
        let full = hex(Self.everyPart)
        for length in 12..<29 {
            #expect(throws: ConformanceError.self) { try SequenceParameterSet(nalUnit: Array(full.prefix(length))) }
        }
        #expect(try SequenceParameterSet(nalUnit: Array(full.prefix(29))).vuiFrameRate == 30)
    }

    /// colour_primaries, transfer_characteristics and matrix_coefficients.
    private func colour(_ sps: SequenceParameterSet) -> [UInt8?] {
        [sps.colourPrimaries, sps.transferCharacteristics, sps.matrixCoefficients]
    }
}
