extension NALUnit {
    /// Whether this SEI NAL unit holds an ATSC A/53 caption message: `user_data_registered_itu_t_t35` (payload
    /// type 4) for the United States (0xB5), provider 0x0031, user identifier `GA94`, user data type 3 (`cc_data`).
    var carriesA53Captions: Bool {
        guard type == 6 else { return false }
        let payload = rbsp
        var index = 0
        while index < payload.count, payload[index] != 0x80 {
            guard let payloadType = Self.seiNumber(payload, &index), let size = Self.seiNumber(payload, &index),
                  index + size <= payload.count else { return false }
            let message = payload[index..<index + size]
            if payloadType == 4, message.starts(with: Self.a53Prefix) { return true }
            index += size
        }
        return false
    }

    /// Country code, provider code, `GA94` and the `cc_data` type code.
    private static let a53Prefix: [UInt8] = [0xB5, 0x00, 0x31, 0x47, 0x41, 0x39, 0x34, 0x03]

    /// An SEI payload type or size: 0xFF bytes adding 255 each, then the last byte.
    private static func seiNumber(_ bytes: [UInt8], _ index: inout Int) -> Int? {
        var value = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            value += Int(byte)
            if byte != 0xFF { return value }
        }
        return nil
    }
}
