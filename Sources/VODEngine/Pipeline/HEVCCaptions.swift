/// Closed captions in HEVC: what libx264's `a53cc` does for H.264, which FFmpeg 5.1's libx265 wrapper cannot (it
/// passes only unregistered user data). Each picture's `cc_data` becomes an ATSC A/53 message in a prefix SEI NAL
/// unit (ITU-T T.35 registered user data, as HEVC decoders read it), put before the first slice of the picture's
/// encoded access unit, so an HEVC rung carries the same CEA-608/708 captions as the H.264 ones.
enum HEVCCaptions {
    /// `payload` (Annex B, one access unit) with a prefix SEI carrying `ccData` (`cc_data` triplets) before its
    /// first slice, after its parameter sets and other SEI.
    static func inserting(_ ccData: [UInt8], into payload: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let units = AnnexB.units(in: payload)
        let firstSlice = units.first { !$0.isEmpty && (payload[$0.lowerBound] >> 1) & 0x3F < 32 }
        // The slice's start code begins where the unit before it ends (or at the payload's start).
        let cut = firstSlice.map { slice in units.last { $0.upperBound < slice.lowerBound }?.upperBound ?? 0 } ?? payload.count
        return Array(payload[..<cut]) + [0, 0, 0, 1] + seiUnit(ccData) + Array(payload[cut...])
    }

    /// A prefix SEI NAL unit (type 39, layer 0, temporal id 1) holding one A/53 message with `ccData`.
    static func seiUnit(_ ccData: [UInt8]) -> [UInt8] {
        let count = min(ccData.count / 3, 31)
        let message = [0xB5, 0x00, 0x31] + Array("GA94".utf8) + [0x03, 0x40 | UInt8(count), 0xFF]
            + ccData.prefix(count * 3) + [0xFF]
        let rbsp = [4] + sizeBytes(message.count) + message + [0x80]
        return [39 << 1, 0x01] + preventingEmulation(rbsp)
    }

    /// An SEI payload size: 0xFF bytes adding 255 each, then the rest.
    private static func sizeBytes(_ size: Int) -> [UInt8] {
        Array(repeating: 0xFF, count: size / 255) + [UInt8(size % 255)]
    }

    /// `rbsp` with an `03` after every two zero bytes that a byte of 0 to 3 follows, so no start code appears in it.
    static func preventingEmulation(_ rbsp: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for byte in rbsp {
            if zeros == 2, byte <= 3 {
                out.append(3)
                zeros = 0
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }
}
