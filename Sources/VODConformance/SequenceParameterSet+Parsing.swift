extension SequenceParameterSet {
    /// Profiles whose SPS carries chroma_format_idc, bit depths and scaling matrices.
    private static let highProfiles: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// Parses an SPS NAL unit: its header byte (type 7) followed by the payload, emulation prevention bytes included.
    public init(nalUnit: [UInt8]) throws(ConformanceError) {
        guard let header = nalUnit.first, header & 0x1F == 7 else {
            throw .malformedBitstream("not an SPS NAL unit")
        }
        try self.init(rbsp: NALUnit(type: 7, bytes: nalUnit[...]).rbsp)
    }

    /// Parses an SPS from its RBSP: the bytes after the NAL header with emulation prevention removed.
    init(rbsp: [UInt8]) throws(ConformanceError) {
        var reader = BitReader(rbsp)
        let profile = UInt8(try reader.bits(8))
        let constraints = UInt8(try reader.bits(8))
        let level = UInt8(try reader.bits(8))
        _ = try reader.unsignedGolomb()
        var chromaFormat: UInt32 = 1
        var separateColourPlanes = false
        var depthLuma = 8
        var depthChroma = 8
        if Self.highProfiles.contains(profile) {
            chromaFormat = try reader.unsignedGolomb()
            guard chromaFormat <= 3 else { throw .malformedBitstream("chroma_format_idc \(chromaFormat) is out of range") }
            if chromaFormat == 3 { separateColourPlanes = try reader.flag() }
            depthLuma = Int(try reader.unsignedGolomb()) + 8
            depthChroma = Int(try reader.unsignedGolomb()) + 8
            try reader.skip(1)
            if try reader.flag() {
                for list in 0..<(chromaFormat == 3 ? 12 : 8) {
                    if try reader.flag() { try Self.skipScalingList(&reader, size: list < 6 ? 16 : 64) }
                }
            }
        }
        _ = try reader.unsignedGolomb()
        switch try reader.unsignedGolomb() {
        case 0:
            _ = try reader.unsignedGolomb()
        case 1:
            try reader.skip(1)
            _ = try reader.signedGolomb()
            _ = try reader.signedGolomb()
            let cycle = try reader.unsignedGolomb()
            guard cycle <= 255 else { throw .malformedBitstream("num_ref_frames_in_pic_order_cnt_cycle is out of range") }
            for _ in 0..<cycle { _ = try reader.signedGolomb() }
        default:
            break
        }
        _ = try reader.unsignedGolomb()
        try reader.skip(1)
        let widthInMBs = Int(try reader.unsignedGolomb()) + 1
        let heightInMapUnits = Int(try reader.unsignedGolomb()) + 1
        let frameMBsOnly = try reader.flag()
        if !frameMBsOnly { try reader.skip(1) }
        try reader.skip(1)
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if try reader.flag() {
            crop = (Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()),
                    Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()))
        }
        let vui = try reader.flag() ? try VideoUsability(reading: &reader) : VideoUsability()

        let chromaArrayType = separateColourPlanes ? 0 : chromaFormat
        let subWidth = chromaArrayType == 1 || chromaArrayType == 2 ? 2 : 1
        let subHeight = chromaArrayType == 1 ? 2 : 1
        let fieldFactor = frameMBsOnly ? 1 : 2
        let cropUnitX = chromaArrayType == 0 ? 1 : subWidth
        let cropUnitY = (chromaArrayType == 0 ? 1 : subHeight) * fieldFactor
        let width = widthInMBs * 16 - cropUnitX * (crop.left + crop.right)
        let height = fieldFactor * heightInMapUnits * 16 - cropUnitY * (crop.top + crop.bottom)
        guard width > 0, height > 0 else { throw .malformedBitstream("SPS cropping leaves no picture") }

        self.init(
            coding: .h264, profileIDC: profile, constraintFlags: constraints, levelIDC: level, hevcProfile: nil,
            chromaFormatIDC: chromaFormat, bitDepthLuma: depthLuma, bitDepthChroma: depthChroma,
            frameMBsOnly: frameMBsOnly, width: width, height: height,
            numUnitsInTick: vui.numUnitsInTick, timeScale: vui.timeScale,
            aspectRatioIDC: vui.aspectRatioIDC, sampleAspectRatio: vui.sampleAspectRatio,
            videoFormat: vui.videoFormat, fullRange: vui.fullRange, colourPrimaries: vui.colourPrimaries,
            transferCharacteristics: vui.transferCharacteristics, matrixCoefficients: vui.matrixCoefficients
        )
    }

    private static func skipScalingList(_ reader: inout BitReader, size: Int) throws(ConformanceError) {
        var last = 8
        var next = 8
        for _ in 0..<size where next != 0 {
            next = (last + Int(try reader.signedGolomb()) + 256) % 256
            last = next == 0 ? last : next
        }
    }
}
