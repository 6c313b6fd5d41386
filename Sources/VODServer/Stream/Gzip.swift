/// A small gzip (RFC 1952) encoder: DEFLATE with LZ77 matching and the fixed Huffman code.
///
/// Used once per playlist, whose compressed form is cached; HLS playlists repeat themselves line after
/// line, so fixed codes compress them well without a zlib dependency.
enum Gzip {
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        var deflater = Deflater(input)
        output += deflater.deflate()
        let crc = CRC32.checksum(input)
        let size = UInt32(truncatingIfNeeded: input.count)
        for value in [crc, size] {
            for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return output
    }
}

/// The raw DEFLATE stream of one final block with fixed Huffman codes (RFC 1951 §3.2.6).
private struct Deflater {
    private static let lengthBases: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtraBits: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBases: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    private static let window = 32768
    private static let maxChain = 64

    private let input: [UInt8]
    private var bits = BitWriter()

    init(_ input: [UInt8]) {
        self.input = input
    }

    mutating func deflate() -> [UInt8] {
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE = fixed Huffman
        var head = [Int](repeating: -1, count: 1 << 15)
        var previous = [Int](repeating: -1, count: input.count)
        var position = 0
        while position < input.count {
            let (length, distance) = longestMatch(at: position, head: head, previous: previous)
            let step = length >= 3 ? length : 1
            for index in position..<(position + step) where index + 2 < input.count {
                let hash = Self.hash(input, index)
                previous[index] = head[hash]
                head[hash] = index
            }
            if length >= 3 {
                writeMatch(length: length, distance: distance)
            } else {
                writeSymbol(Int(input[position]))
            }
            position += step
        }
        writeSymbol(256)
        return bits.finish()
    }

    private func longestMatch(at position: Int, head: [Int], previous: [Int]) -> (length: Int, distance: Int) {
        guard position + 2 < input.count else { return (0, 0) }
        let limit = min(258, input.count - position)
        var candidate = head[Self.hash(input, position)]
        var best = (length: 0, distance: 0)
        var chain = 0
        while candidate >= 0, position - candidate <= Self.window, chain < Self.maxChain {
            var length = 0
            while length < limit, input[candidate + length] == input[position + length] { length += 1 }
            if length > best.length {
                best = (length, position - candidate)
                if length == limit { break }
            }
            candidate = previous[candidate]
            chain += 1
        }
        return best
    }

    private static func hash(_ bytes: [UInt8], _ index: Int) -> Int {
        (Int(bytes[index]) << 10 ^ Int(bytes[index + 1]) << 5 ^ Int(bytes[index + 2])) & 0x7fff
    }

    private mutating func writeMatch(length: Int, distance: Int) {
        let lengthCode = Self.lengthBases.lastIndex { $0 <= length }!
        writeSymbol(257 + lengthCode)
        bits.write(length - Self.lengthBases[lengthCode], count: Self.lengthExtraBits[lengthCode])
        let distanceCode = Self.distanceBases.lastIndex { $0 <= distance }!
        bits.writeHuffman(distanceCode, count: 5)
        bits.write(distance - Self.distanceBases[distanceCode], count: Self.distanceExtraBits[distanceCode])
    }

    /// Writes a literal/length symbol with its fixed code.
    private mutating func writeSymbol(_ symbol: Int) {
        switch symbol {
        case 0...143: bits.writeHuffman(0x30 + symbol, count: 8)
        case 144...255: bits.writeHuffman(0x190 + symbol - 144, count: 9)
        case 256...279: bits.writeHuffman(symbol - 256, count: 7)
        default: bits.writeHuffman(0xc0 + symbol - 280, count: 8)
        }
    }
}

/// Packs bits least significant first, as DEFLATE stores them.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt32 = 0
    private var used: UInt32 = 0

    /// Writes the low `count` bits of `value`, least significant first (header fields and extra bits).
    mutating func write(_ value: Int, count: Int) {
        guard count > 0 else { return }
        buffer |= UInt32(value) << used
        used += UInt32(count)
        while used >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            used -= 8
        }
    }

    /// Writes a Huffman code, most significant bit first.
    mutating func writeHuffman(_ code: Int, count: Int) {
        var reversed = 0
        for bit in 0..<count where code & (1 << bit) != 0 { reversed |= 1 << (count - 1 - bit) }
        write(reversed, count: count)
    }

    mutating func finish() -> [UInt8] {
        if used > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        return bytes
    }
}

/// The CRC-32 of gzip's trailer (ISO 3309, reflected polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
