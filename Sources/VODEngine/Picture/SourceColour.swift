import VODFFmpeg

/// A source's colour description as H.273 code points (the values of FFmpeg's `AVColor*` enums), with what a
/// player would assume filled in where the stream says nothing.
struct SourceColour: Equatable, Sendable {
    var primaries: Int32
    var transfer: Int32
    var matrix: Int32
    var fullRange: Bool

    /// The SMPTE ST 2084 (PQ) transfer.
    static let pq: Int32 = 16
    /// The ARIB STD-B67 (HLG) transfer.
    static let hlg: Int32 = 18
    /// The BT.709 transfer.
    static let bt709: Int32 = 1
    /// BT.2020 primaries, and its non-constant-luminance matrix: the same H.273 code point.
    static let bt2020: Int32 = 9

    /// Reads the stream's tags; an unspecified matrix gets the convention for the height, as players assume it
    /// (BT.709 for HD, BT.601 for SD, BT.2020 for an HDR transfer). Unspecified primaries are taken as BT.709
    /// (BT.2020 for HDR): only tagged SD primaries are converted, rather than shifting colours on a guess.
    init(stream: MediaStream, transfer knownTransfer: Int32? = nil) {
        let sd = stream.height > 0 && stream.height <= 576
        let transfer = knownTransfer ?? Self.specified(stream.colourTransfer)
        let hdr = transfer == Self.pq || transfer == Self.hlg
        let fallbackPrimaries: Int32 = hdr ? 9 : 1
        let fallbackMatrix: Int32 = hdr ? 9 : sd ? 6 : 1
        self.primaries = Self.specified(stream.colourPrimaries) ?? fallbackPrimaries
        self.transfer = transfer ?? (sd ? 6 : 1)
        self.matrix = Self.specified(stream.colourMatrix) ?? fallbackMatrix
        self.fullRange = stream.isFullRange
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
