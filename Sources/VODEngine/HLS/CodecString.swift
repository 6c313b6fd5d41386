/// RFC 6381 codec strings derived from the encoded bitstreams, never from configuration.
enum CodecString {
    /// The video CODECS of an encoder's Annex B keyframe: `avc1.PPCCLL` for H.264; nil for a codec not
    /// known here.
    static func video(codec: String, keyframe bytes: UnsafeBufferPointer<UInt8>) -> String? {
        codec == "h264" ? avc(annexB: bytes) : nil
    }

    /// `avc1.PPCCLL` from the first sequence parameter set in an Annex B H.264 access unit.
    static func avc(annexB bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let sps = AnnexB.units(in: bytes).first(where: { $0.count >= 4 && bytes[$0.lowerBound] & 0x1F == 7 }) else {
            return nil
        }
        return "avc1." + (1...3).map { hex(bytes[sps.lowerBound + $0]) }.joined()
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
