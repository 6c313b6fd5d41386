extension SequenceParameterSet {
    /// Parses an HEVC SPS NAL unit (H.265 7.3.2.2): its two header bytes (type 33) followed by the payload,
    /// emulation prevention bytes included. Reads through the VUI's timing; the extensions after it are not needed.
    public init(hevcNALUnit nalUnit: [UInt8]) throws(ConformanceError) {
        guard nalUnit.count > 2, NALUnit.hevcType(nalUnit[0]) == 33 else { throw .malformedBitstream("not an HEVC SPS NAL unit") }
        var reader = BitReader(NALUnit(type: 7, bytes: nalUnit[...], headerLength: 2).rbsp)
        try reader.skip(4)
        let subLayers = Int(try reader.bits(3))
        try reader.skip(1)
        let profile = try Self.profileTierLevel(&reader, subLayers: subLayers)
        _ = try reader.unsignedGolomb()
        let chromaFormat = try reader.unsignedGolomb()
        guard chromaFormat <= 3 else { throw .malformedBitstream("chroma_format_idc \(chromaFormat) is out of range") }
        let separateColourPlanes = chromaFormat == 3 ? try reader.flag() : false
        let codedWidth = Int(try reader.unsignedGolomb())
        let codedHeight = Int(try reader.unsignedGolomb())
        var window = (left: 0, right: 0, top: 0, bottom: 0)
        if try reader.flag() {
            window = (Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()),
                      Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()))
        }
        let depthLuma = Int(try reader.unsignedGolomb()) + 8
        let depthChroma = Int(try reader.unsignedGolomb()) + 8
        let pocBits = Int(try reader.unsignedGolomb()) + 4
        guard pocBits <= 16 else { throw .malformedBitstream("log2_max_pic_order_cnt_lsb is out of range") }
        let orderingForAll = try reader.flag()
        for _ in (orderingForAll ? 0 : subLayers)...subLayers {
            for _ in 0..<3 { _ = try reader.unsignedGolomb() }
        }
        for _ in 0..<6 { _ = try reader.unsignedGolomb() }
        if try reader.flag(), try reader.flag() { try Self.skipScalingListData(&reader) }
        try reader.skip(2)
        if try reader.flag() {
            try reader.skip(8)
            _ = try reader.unsignedGolomb()
            _ = try reader.unsignedGolomb()
            try reader.skip(1)
        }
        try Self.skipShortTermReferenceSets(&reader)
        if try reader.flag() {
            let count = try reader.unsignedGolomb()
            guard count <= 32 else { throw .malformedBitstream("num_long_term_ref_pics_sps is out of range") }
            for _ in 0..<count { try reader.skip(pocBits + 1) }
        }
        try reader.skip(2)
        let vui = try reader.flag() ? try VideoUsability(reading: &reader, coding: .hevc) : VideoUsability()

        let chromaArrayType = separateColourPlanes ? 0 : chromaFormat
        let unitX = chromaArrayType == 1 || chromaArrayType == 2 ? 2 : 1
        let unitY = chromaArrayType == 1 ? 2 : 1
        let width = codedWidth - unitX * (window.left + window.right)
        let height = codedHeight - unitY * (window.top + window.bottom)
        guard width > 0, height > 0 else { throw .malformedBitstream("the SPS conformance window leaves no picture") }

        self.init(
            coding: .hevc, profileIDC: profile.idc, constraintFlags: 0, levelIDC: profile.level, hevcProfile: profile.general,
            chromaFormatIDC: chromaFormat, bitDepthLuma: depthLuma, bitDepthChroma: depthChroma,
            frameMBsOnly: !vui.fieldSequence, width: width, height: height,
            numUnitsInTick: vui.numUnitsInTick, timeScale: vui.timeScale,
            aspectRatioIDC: vui.aspectRatioIDC, sampleAspectRatio: vui.sampleAspectRatio,
            videoFormat: vui.videoFormat, fullRange: vui.fullRange, colourPrimaries: vui.colourPrimaries,
            transferCharacteristics: vui.transferCharacteristics, matrixCoefficients: vui.matrixCoefficients
        )
    }

    /// profile_tier_level(1, sps_max_sub_layers_minus1): the general profile and level, the sub-layers' skipped.
    private static func profileTierLevel(_ reader: inout BitReader, subLayers: Int)
        throws(ConformanceError) -> (idc: UInt8, level: UInt8, general: HEVCProfile) {
        let space = UInt8(try reader.bits(2))
        let highTier = try reader.flag()
        let idc = UInt8(try reader.bits(5))
        let compatibility = try reader.bits(32)
        var constraints: [UInt8] = []
        for _ in 0..<6 { constraints.append(UInt8(try reader.bits(8))) }
        let level = UInt8(try reader.bits(8))
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers { present.append((try reader.flag(), try reader.flag())) }
        if subLayers > 0 { try reader.skip(2 * (8 - subLayers)) }
        for layer in present {
            if layer.profile { try reader.skip(88) }
            if layer.level { try reader.skip(8) }
        }
        return (idc, level, HEVCProfile(space: space, highTier: highTier, idc: idc, compatibility: compatibility,
                                        constraints: constraints))
    }

    /// scaling_list_data() (H.265 7.3.4).
    private static func skipScalingListData(_ reader: inout BitReader) throws(ConformanceError) {
        for size in 0..<4 {
            for _ in stride(from: 0, to: 6, by: size == 3 ? 3 : 1) {
                guard try reader.flag() else {
                    _ = try reader.unsignedGolomb()
                    continue
                }
                if size > 1 { _ = try reader.signedGolomb() }
                for _ in 0..<min(64, 1 << (4 + (size << 1))) { _ = try reader.signedGolomb() }
            }
        }
    }

    /// num_short_term_ref_pic_sets and each st_ref_pic_set() (H.265 7.3.7), counting each set's pictures, which
    /// the next set may be predicted from.
    private static func skipShortTermReferenceSets(_ reader: inout BitReader) throws(ConformanceError) {
        let count = Int(try reader.unsignedGolomb())
        guard count <= 64 else { throw .malformedBitstream("num_short_term_ref_pic_sets is out of range") }
        var pictures: [Int] = []
        for index in 0..<count {
            if index > 0, try reader.flag() {
                try reader.skip(1)
                _ = try reader.unsignedGolomb()
                var used = 0
                for _ in 0...pictures[index - 1] {
                    // used_by_curr_pic_flag, then use_delta_flag when it is unset.
                    let counted = try reader.flag() ? true : try reader.flag()
                    if counted { used += 1 }
                }
                pictures.append(used)
            } else {
                let negative = Int(try reader.unsignedGolomb())
                let positive = Int(try reader.unsignedGolomb())
                guard negative + positive <= 32 else { throw .malformedBitstream("a short-term reference set is too large") }
                for _ in 0..<(negative + positive) {
                    _ = try reader.unsignedGolomb()
                    try reader.skip(1)
                }
                pictures.append(negative + positive)
            }
        }
    }
}
