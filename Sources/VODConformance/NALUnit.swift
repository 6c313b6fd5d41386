/// One H.264 or HEVC NAL unit found in an Annex B byte stream or an fMP4 sample.
struct NALUnit {
    /// nal_unit_type in H.264's numbering: 1 non-IDR slice, 5 IDR slice, 6 SEI, 7 SPS, 8 PPS, 9 access unit
    /// delimiter. An HEVC unit's type is given the H.264 number of its role (`h264Type(ofHEVC:)`), so that the
    /// rules about slices, IDR pictures and parameter sets read both codings alike.
    let type: UInt8
    /// The NAL unit's bytes after the start code (or length), header included, still with emulation prevention
    /// bytes.
    let bytes: ArraySlice<UInt8>
    /// The bytes of the NAL unit header: 1 for H.264, 2 for HEVC.
    var headerLength = 1

    /// The nal_unit_type of an HEVC NAL unit, from the first byte of its header.
    static func hevcType(_ header: UInt8) -> UInt8 { (header >> 1) & 0x3F }

    /// The H.264 nal_unit_type of the role an HEVC nal_unit_type plays: IDR pictures (IDR_W_RADL, IDR_N_LP) are
    /// 5, other slices 1, SEI 6, SPS 7, PPS 8, access unit delimiters 9; the video parameter set and the rest 0.
    static func h264Type(ofHEVC type: UInt8) -> UInt8 {
        switch type {
        case 19, 20: 5
        case 0...31: 1
        case 33: 7
        case 34: 8
        case 35: 9
        case 39, 40: 6
        default: 0
        }
    }

    /// Whether the NAL unit carries a coded slice (a VCL NAL unit).
    var isSlice: Bool { (1...5).contains(type) }

    /// The NAL units of an Annex B stream, in order; stops after the first slice when `throughFirstSlice` is set.
    static func split(annexB data: [UInt8], throughFirstSlice: Bool = false, hevc: Bool = false) -> [NALUnit] {
        var units: [NALUnit] = []
        var start = nextPayload(in: data, from: 0)
        while let begin = start, begin < data.count {
            let next = nextPayload(in: data, from: begin)
            var end = next.map { $0 - 3 } ?? data.count
            while end > begin, data[end - 1] == 0 { end -= 1 }
            let unit = NALUnit(bytes: data[begin..<end], hevc: hevc)
            units.append(unit)
            if throughFirstSlice && unit.isSlice { break }
            start = next
        }
        return units
    }

    /// The NAL units of an fMP4 sample, each after its `lengthSize`-byte length, in order through the first slice.
    static func split(lengthPrefixed sample: ArraySlice<UInt8>, lengthSize: Int, hevc: Bool = false) -> [NALUnit] {
        var units: [NALUnit] = []
        var offset = sample.startIndex
        while offset + lengthSize < sample.endIndex {
            let length = sample[offset ..< offset + lengthSize].reduce(0) { $0 << 8 | Int($1) }
            let begin = offset + lengthSize
            let unit = NALUnit(bytes: sample[begin ..< min(begin + max(length, 1), sample.endIndex)], hevc: hevc)
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

    /// The payload without the header and with emulation prevention bytes (`00 00 03`) removed.
    var rbsp: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes.dropFirst(headerLength) {
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

extension NALUnit {
    /// A unit whose bytes start with its header, typed in H.264's numbering whatever its coding.
    fileprivate init(bytes: ArraySlice<UInt8>, hevc: Bool) {
        let header = bytes.first ?? 0
        self.init(type: hevc ? Self.h264Type(ofHEVC: Self.hevcType(header)) : header & 0x1F, bytes: bytes,
                  headerLength: hevc ? 2 : 1)
    }
}
