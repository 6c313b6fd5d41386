import CFFmpeg

/// A source's colour description as H.273 code points (the values of FFmpeg's `AVColor*` enums), with what a
/// player would assume filled in where the stream says nothing.
struct SourceColour: Equatable, Sendable {
    var primaries: Int32
    var transfer: Int32
    var matrix: Int32
    var fullRange: Bool

    /// The SMPTE ST 2084 (PQ) transfer.
    static let pq = Int32(AVCOL_TRC_SMPTE2084.rawValue)
    /// The ARIB STD-B67 (HLG) transfer.
    static let hlg = Int32(AVCOL_TRC_ARIB_STD_B67.rawValue)

    /// Reads the stream's tags; an unspecified matrix gets the convention for the height, as players assume it
    /// (BT.709 for HD, BT.601 for SD, BT.2020 for an HDR transfer). Unspecified primaries are taken as BT.709
    /// (BT.2020 for HDR): only tagged SD primaries are converted, rather than shifting colours on a guess.
    init(parameters: AVCodecParameters, transfer knownTransfer: Int32? = nil) {
        let sd = parameters.height > 0 && parameters.height <= 576
        let transfer = knownTransfer ?? Self.specified(parameters.color_trc.rawValue)
        let hdr = transfer == Self.pq || transfer == Self.hlg
        let fallbackPrimaries: Int32 = hdr ? 9 : 1
        let fallbackMatrix: Int32 = hdr ? 9 : sd ? 6 : 1
        self.primaries = Self.specified(parameters.color_primaries.rawValue) ?? fallbackPrimaries
        self.transfer = transfer ?? (sd ? 6 : 1)
        self.matrix = Self.specified(parameters.color_space.rawValue) ?? fallbackMatrix
        let format = AVPixelFormat(rawValue: parameters.format)
        self.fullRange = parameters.color_range == AVCOL_RANGE_JPEG || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P,
                                                                       AV_PIX_FMT_YUVJ444P].contains(format)
    }

    /// Whether pictures can be encoded as BT.709 limited range without converting them. SD's BT.601 transfer is
    /// the same curve as BT.709's, so only the primaries, the matrix and the range matter.
    var isBT709Limited: Bool {
        primaries == 1 && matrix == 1 && !fullRange && [1, 6, 14, 15].contains(transfer)
    }

    /// A code point, or nil for "unspecified" (2), "reserved" (0 for primaries and transfer, 3) and unknowns.
    private static func specified(_ value: UInt32) -> Int32? {
        value == 0 || value == 2 || value == 3 || value > 22 ? nil : Int32(value)
    }
}
