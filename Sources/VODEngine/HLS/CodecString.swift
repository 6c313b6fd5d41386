/// RFC 6381 codec strings derived from the encoded bitstreams, never from configuration.
enum CodecString {
    /// The video CODECS of an encoder's Annex B keyframe: `avc1.PPCCLL` for H.264, `hvc1.…` for HEVC; nil for a
    /// codec not known here.
    static func video(codec: String, keyframe bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch codec {
        case "h264": avc(annexB: bytes)
        case "hevc": hvc(annexB: bytes)
        default: nil
        }
    }

    /// `avc1.PPCCLL` from the first sequence parameter set in an Annex B H.264 access unit.
    static func avc(annexB bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let sps = AnnexB.units(in: bytes).first(where: { $0.count >= 4 && bytes[$0.lowerBound] & 0x1F == 7 }) else {
            return nil
        }
        return "avc1." + (1...3).map { hex(bytes[sps.lowerBound + $0]) }.joined()
    }

    /// `hvc1.` and the general profile, tier and level of the first HEVC sequence parameter set in an Annex B
    /// access unit (ISO/IEC 14496-15 annex E): the profile space (none, A, B or C) and profile_idc, the
    /// compatibility flags in reverse bit order in hex, the tier (L or H) and level_idc, then the constraint
    /// bytes in hex up to the last non-zero one, such as `hvc1.1.6.L93.B0`.
    static func hvc(annexB bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let sps = AnnexB.units(in: bytes).first(where: { $0.count > 2 && (bytes[$0.lowerBound] >> 1) & 0x3F == 33 }) else {
            return nil
        }
        // After the two header bytes: one of video parameter set, sub-layers and nesting, then 12 of profile,
        // tier and level, read without the emulation prevention bytes (00 00 03) they often hold.
        var fields: [UInt8] = []
        var zeros = 0
        for index in sps.dropFirst(2) where fields.count < 13 {
            if zeros >= 2 && bytes[index] == 3 {
                zeros = 0
                continue
            }
            zeros = bytes[index] == 0 ? zeros + 1 : 0
            fields.append(bytes[index])
        }
        guard fields.count == 13 else { return nil }
        let compatibility = fields[2...5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var reversed: UInt32 = 0
        for bit in 0..<32 where compatibility & (1 << bit) != 0 { reversed |= 1 << (31 - bit) }
        let constraints = fields[6...11]
        let significant = constraints.lastIndex { $0 != 0 }.map { constraints[...$0] } ?? []
        return (["hvc1", ["", "A", "B", "C"][Int(fields[1] >> 6)] + "\(fields[1] & 0x1F)", String(reversed, radix: 16, uppercase: true),
                 (fields[1] & 0x20 != 0 ? "H" : "L") + "\(fields[12])"] + significant.map { String($0, radix: 16, uppercase: true) })
            .joined(separator: ".")
    }

    /// `mp4a.40.N` where N is the audio object type in an AudioSpecificConfig (2 for AAC-LC).
    static func mp4a(audioSpecificConfig bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = bytes.first else { return nil }
        var objectType = Int(first >> 3)
        if objectType == 31, bytes.count >= 2 {
            objectType = 32 + Int((first & 0x07) << 3 | bytes[1] >> 5)
        }
        return objectType > 0 ? "mp4a.40.\(objectType)" : nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
