extension SequenceParameterSet {
    /// The fields of vui_parameters() (H.264 E.1.1, H.265 E.2.1) the checker reads, defaulting to what both infer
    /// when absent.
    struct VideoUsability {
        var aspectRatioIDC: UInt8?
        var sampleAspectRatio: SampleAspectRatio?
        var videoFormat: UInt8?
        var fullRange = false
        var colourPrimaries: UInt8?
        var transferCharacteristics: UInt8?
        var matrixCoefficients: UInt8?
        var numUnitsInTick: UInt32?
        var timeScale: UInt32?
        /// HEVC's field_seq_flag: the pictures are fields.
        var fieldSequence = false
    }
}

extension SequenceParameterSet.VideoUsability {
    /// H.264 Table E-1: the sample aspect ratios of aspect_ratio_idc 1…16.
    private static let tableAspectRatios: [(width: Int, height: Int)] = [
        (1, 1), (12, 11), (10, 11), (16, 11), (40, 33), (24, 11), (20, 11), (32, 11),
        (80, 33), (18, 11), (15, 11), (64, 33), (160, 99), (4, 3), (3, 2), (2, 1),
    ]

    /// Reads the VUI from aspect ratio to timing information; the HRD parameters and restrictions after it are not
    /// needed. HEVC's VUI has the field and default display window fields between chroma location and timing.
    init(reading reader: inout BitReader, coding: SequenceParameterSet.Coding = .h264) throws(ConformanceError) {
        if try reader.flag() {
            let idc = UInt8(try reader.bits(8))
            aspectRatioIDC = idc
            if idc == 255 {
                let width = Int(try reader.bits(16))
                let height = Int(try reader.bits(16))
                if width > 0, height > 0 { sampleAspectRatio = SampleAspectRatio(width: width, height: height) }
            } else if (1...Self.tableAspectRatios.count).contains(Int(idc)) {
                let ratio = Self.tableAspectRatios[Int(idc) - 1]
                sampleAspectRatio = SampleAspectRatio(width: ratio.width, height: ratio.height)
            }
        }
        if try reader.flag() { try reader.skip(1) }
        if try reader.flag() {
            videoFormat = UInt8(try reader.bits(3))
            fullRange = try reader.flag()
            if try reader.flag() {
                colourPrimaries = UInt8(try reader.bits(8))
                transferCharacteristics = UInt8(try reader.bits(8))
                matrixCoefficients = UInt8(try reader.bits(8))
            }
        }
        if try reader.flag() {
            _ = try reader.unsignedGolomb()
            _ = try reader.unsignedGolomb()
        }
        if coding == .hevc {
            try reader.skip(1)
            fieldSequence = try reader.flag()
            try reader.skip(1)
            if try reader.flag() {
                for _ in 0..<4 { _ = try reader.unsignedGolomb() }
            }
        }
        if try reader.flag() {
            numUnitsInTick = try reader.bits(32)
            timeScale = try reader.bits(32)
        }
    }
}
