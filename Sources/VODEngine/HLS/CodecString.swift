/// RFC 6381 codec strings derived from the encoded bitstreams, never from configuration.
enum CodecString {
    /// `avc1.PPCCLL` from the first sequence parameter set in an Annex B H.264 access unit.
    static func avc(annexB bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                let nal = index + 3
                if bytes[nal] & 0x1F == 7, nal + 3 < bytes.count {
                    return "avc1." + [bytes[nal + 1], bytes[nal + 2], bytes[nal + 3]].map(hex).joined()
                }
                index = nal
            } else {
                index += 1
            }
        }
        return nil
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
