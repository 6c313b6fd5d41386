/// The fields of an H.264 sequence parameter set that HLS conformance depends on.
public struct SequenceParameterSet: Sendable, Equatable, Encodable {
    /// profile_idc: 66 Baseline, 77 Main, 100 High, 110 High 10, 122 High 4:2:2, 244 High 4:4:4.
    public let profileIDC: UInt8
    /// The byte of constraint_set0…5 flags and the two reserved bits that follows profile_idc.
    public let constraintFlags: UInt8
    /// level_idc: ten times the level number (31 for 3.1), or 9 for level 1b.
    public let levelIDC: UInt8
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public let chromaFormatIDC: UInt32
    /// Luma bit depth (8 for 8-bit video).
    public let bitDepthLuma: Int
    /// Chroma bit depth.
    public let bitDepthChroma: Int
    /// frame_mbs_only_flag: true when every picture is a progressive frame.
    public let frameMBsOnly: Bool
    /// Coded width in pixels after cropping.
    public let width: Int
    /// Coded height in pixels after cropping.
    public let height: Int
    /// VUI num_units_in_tick, when the VUI carries timing information.
    public let numUnitsInTick: UInt32?
    /// VUI time_scale, when the VUI carries timing information.
    public let timeScale: UInt32?
    /// VUI aspect_ratio_idc (1 square, 2…16 Table E-1, 255 explicit), when the VUI carries aspect ratio information.
    public let aspectRatioIDC: UInt8?
    /// The sample aspect ratio the VUI gives, nil when it leaves it unspecified (no aspect ratio information,
    /// aspect_ratio_idc 0 or reserved, or a zero sar_width or sar_height).
    public let sampleAspectRatio: SampleAspectRatio?
    /// VUI video_format (0 component, 1 PAL, 2 NTSC, …, 5 unspecified), when the VUI carries a video signal type.
    public let videoFormat: UInt8?
    /// VUI video_full_range_flag: true for full (PC) range, false for limited (TV) range, which is also the default.
    public let fullRange: Bool
    /// VUI colour_primaries (1 BT.709, 9 BT.2020), when the VUI carries a colour description.
    public let colourPrimaries: UInt8?
    /// VUI transfer_characteristics (1 BT.709, 16 PQ, 18 HLG), when the VUI carries a colour description.
    public let transferCharacteristics: UInt8?
    /// VUI matrix_coefficients (1 BT.709, 9 BT.2020 non-constant luminance), when the VUI carries a colour description.
    public let matrixCoefficients: UInt8?

    /// Frames per second from the VUI timing (`time_scale / (2 × num_units_in_tick)`), when present.
    public var vuiFrameRate: Double? {
        guard let numUnitsInTick, let timeScale, numUnitsInTick > 0 else { return nil }
        return Double(timeScale) / (2 * Double(numUnitsInTick))
    }

    /// The RFC 6381 codec string, `avc1.` and the hex of profile_idc, the constraint byte and level_idc.
    public var codecString: String {
        "avc1." + [profileIDC, constraintFlags, levelIDC].map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
