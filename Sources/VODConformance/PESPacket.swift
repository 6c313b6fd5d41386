/// A reassembled PES packet: its timestamps and its payload.
struct PESPacket {
    let pts: Int64?
    let dts: Int64?
    let payload: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) throws(ConformanceError) {
        guard bytes.count >= 9, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 else {
            throw .malformedBitstream("PES packet has no start code")
        }
        let declaredLength = Int(bytes[4]) << 8 | Int(bytes[5])
        let headerLength = Int(bytes[8])
        let flags = bytes[7] >> 6
        let payloadStart = 9 + headerLength
        var payloadEnd = bytes.count
        if declaredLength > 0 {
            guard 6 + declaredLength <= bytes.count else {
                throw .malformedBitstream("PES packet is truncated: \(bytes.count - 6) of \(declaredLength) bytes")
            }
            payloadEnd = 6 + declaredLength
        }
        guard payloadStart <= payloadEnd else { throw .malformedBitstream("PES header is longer than the packet") }
        pts = flags & 2 != 0 ? try Self.timestamp(bytes, at: 9) : nil
        dts = flags == 3 ? try Self.timestamp(bytes, at: 14) : nil
        payload = bytes[payloadStart..<payloadEnd]
    }

    private static func timestamp(_ bytes: [UInt8], at index: Int) throws(ConformanceError) -> Int64 {
        guard index + 5 <= bytes.count else { throw .malformedBitstream("PES header is truncated") }
        let b = bytes[index..<index + 5].map(Int64.init)
        return (b[0] >> 1 & 0x07) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
    }
}
