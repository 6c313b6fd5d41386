/// The fields of an H.264 or HEVC sequence parameter set that HLS conformance depends on.
public struct SequenceParameterSet: Sendable, Equatable, Encodable {
    /// The video coding format whose SPS this is.
    public enum Coding: String, Sendable, Equatable, Encodable {
        case h264
        case hevc
    }

    /// The coding format: H.264 or HEVC.
    public let coding: Coding
    /// H.264 profile_idc (66 Baseline, 77 Main, 100 High, 110 High 10, 122 High 4:2:2, 244 High 4:4:4), or HEVC
    /// general_profile_idc (1 Main, 2 Main 10, 3 Main Still Picture, 4 range extensions).
    public let profileIDC: UInt8
    /// H.264's byte of constraint_set0…5 flags and the two reserved bits that follows profile_idc; 0 for HEVC,
    /// whose constraints are in `hevcProfile`.
    public let constraintFlags: UInt8
    /// H.264 level_idc: ten times the level number (31 for 3.1), or 9 for level 1b; HEVC general_level_idc:
    /// thirty times the level number (93 for 3.1).
    public let levelIDC: UInt8
    /// HEVC's general profile, tier and constraints beyond `profileIDC` and `levelIDC`; nil for H.264.
    public let hevcProfile: HEVCProfile?
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public let chromaFormatIDC: UInt32
    /// Luma bit depth (8 for 8-bit video).
    public let bitDepthLuma: Int
    /// Chroma bit depth.
    public let bitDepthChroma: Int
    /// H.264 frame_mbs_only_flag, or HEVC's field_seq_flag unset: true when every picture is a progressive frame.
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

    /// Frames per second from the VUI timing, when present: `time_scale / (2 × num_units_in_tick)` for H.264,
    /// whose tick is a field, and `time_scale / num_units_in_tick` for HEVC.
    public var vuiFrameRate: Double? {
        guard let numUnitsInTick, let timeScale, numUnitsInTick > 0 else { return nil }
        return Double(timeScale) / (coding == .h264 ? 2 : 1) / Double(numUnitsInTick)
    }

    /// The RFC 6381 codec string: for H.264 `avc1.` and the hex of profile_idc, the constraint byte and level_idc;
    /// for HEVC `hvc1.` and the fields of ISO/IEC 14496-15 annex E (`HEVCProfile.codecString(level:)`).
    public var codecString: String {
        if let hevcProfile { return hevcProfile.codecString(level: levelIDC) }
        return "avc1." + [profileIDC, constraintFlags, levelIDC].map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}

/// The general profile_tier_level() of an HEVC SPS (H.265 7.3.3) beyond the profile and level numbers.
public struct HEVCProfile: Sendable, Equatable, Encodable {
    /// general_profile_space: 0 in every profile published so far.
    public let space: UInt8
    /// general_tier_flag: false for the Main tier, true for the High tier.
    public let highTier: Bool
    /// general_profile_idc.
    public let idc: UInt8
    /// general_profile_compatibility_flag[0…31], flag 0 in the most significant bit.
    public let compatibility: UInt32
    /// The 48 bits from general_progressive_source_flag on, as six bytes.
    public let constraints: [UInt8]

    /// `hvc1.` then the profile space (none, A, B or C) and profile_idc, the compatibility flags in reverse bit
    /// order in hex, the tier (L or H) and level_idc, and the constraint bytes in hex without the trailing zero
    /// ones, each part after a dot, such as `hvc1.1.6.L93.B0`.
    public func codecString(level: UInt8) -> String {
        var reversed: UInt32 = 0
        for bit in 0..<32 where compatibility & (1 << bit) != 0 { reversed |= 1 << (31 - bit) }
        let space = ["", "A", "B", "C"][Int(self.space & 3)]
        var parts = ["hvc1", "\(space)\(idc)", String(reversed, radix: 16, uppercase: true), "\(highTier ? "H" : "L")\(level)"]
        let significant = constraints.lastIndex { $0 != 0 }.map { constraints[...$0] } ?? []
        parts += significant.map { String($0, radix: 16, uppercase: true) }
        return parts.joined(separator: ".")
    }
}
