/// One H.264 NAL unit found in an Annex B byte stream or an fMP4 sample.
struct NALUnit {
    /// nal_unit_type: 1 non-IDR slice, 5 IDR slice, 6 SEI, 7 SPS, 8 PPS, 9 access unit delimiter.
    let type: UInt8
    /// The NAL unit's bytes after the start code (or length), header byte included, still with emulation
    /// prevention bytes.
    let bytes: ArraySlice<UInt8>

    /// Whether the NAL unit carries a coded slice (a VCL NAL unit).
    var isSlice: Bool { (1...5).contains(type) }

    /// The NAL units of an Annex B stream, in order; stops after the first slice when `throughFirstSlice` is set.
    static func split(annexB data: [UInt8], throughFirstSlice: Bool = false) -> [NALUnit] {
        var units: [NALUnit] = []
        var start = nextPayload(in: data, from: 0)
        while let begin = start, begin < data.count {
            let next = nextPayload(in: data, from: begin)
            var end = next.map { $0 - 3 } ?? data.count
            while end > begin, data[end - 1] == 0 { end -= 1 }
            let unit = NALUnit(type: data[begin] & 0x1F, bytes: data[begin..<end])
            units.append(unit)
            if throughFirstSlice && unit.isSlice { break }
            start = next
        }
        return units
    }

    /// The NAL units of an fMP4 sample, each after its `lengthSize`-byte length, in order through the first slice.
    static func split(lengthPrefixed sample: ArraySlice<UInt8>, lengthSize: Int) -> [NALUnit] {
        var units: [NALUnit] = []
        var offset = sample.startIndex
        while offset + lengthSize < sample.endIndex {
            let length = sample[offset ..< offset + lengthSize].reduce(0) { $0 << 8 | Int($1) }
            let begin = offset + lengthSize
            let unit = NALUnit(type: sample[begin] & 0x1F, bytes: sample[begin ..< min(begin + max(length, 1), sample.endIndex)])
            units.append(unit)
            if unit.isSlice || length <= 0 { break }
            offset = begin + length
        }
        return units
    }

    /// The index just after the next `00 00 01` start code at or after `index`.
    private static func nextPayload(in data: [UInt8], from index: Int) -> Int? {
        var i = index
        while i + 2 < data.count {
            if data[i + 2] > 1 {
                i += 3
            } else if data[i] == 0, data[i + 1] == 0, data[i + 2] == 1 {
                return i + 3
            } else {
                i += 1
            }
        }
        return nil
    }

    /// The payload without the header byte and with emulation prevention bytes (`00 00 03`) removed.
    var rbsp: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes.dropFirst() {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}
