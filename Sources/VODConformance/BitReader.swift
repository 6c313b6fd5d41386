/// Reads an RBSP bit by bit, most significant bit first, with H.264 exp-Golomb codes.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Bits not yet read.
    var remaining: Int { bytes.count * 8 - position }

    mutating func bit() throws(ConformanceError) -> UInt32 {
        guard position < bytes.count * 8 else { throw .malformedBitstream("bitstream ends early") }
        let byte = bytes[position >> 3]
        let value = (byte >> (7 - UInt8(position & 7))) & 1
        position += 1
        return UInt32(value)
    }

    mutating func flag() throws(ConformanceError) -> Bool {
        try bit() == 1
    }

    /// `count` bits (at most 32) as an unsigned number.
    mutating func bits(_ count: Int) throws(ConformanceError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | (try bit())
        }
        return value
    }

    mutating func skip(_ count: Int) throws(ConformanceError) {
        guard count <= remaining else { throw .malformedBitstream("bitstream ends early") }
        position += count
    }

    /// An unsigned exp-Golomb code, ue(v).
    mutating func unsignedGolomb() throws(ConformanceError) -> UInt32 {
        var leadingZeros = 0
        while try bit() == 0 {
            leadingZeros += 1
            guard leadingZeros < 32 else { throw .malformedBitstream("exp-Golomb code longer than 32 bits") }
        }
        let suffix = try bits(leadingZeros)
        return UInt32((UInt64(1) << leadingZeros) - 1 + UInt64(suffix))
    }

    /// A signed exp-Golomb code, se(v).
    mutating func signedGolomb() throws(ConformanceError) -> Int32 {
        let code = Int64(try unsignedGolomb())
        return Int32(code % 2 == 1 ? (code + 1) / 2 : -(code / 2))
    }
}
