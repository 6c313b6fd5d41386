/// The caption channels a stream of `cc_data` triplets carries, as HLS names them in `INSTREAM-ID`: the CEA-608
/// channels CC1 and CC2 in field 1, CC3 and CC4 in field 2, each told apart by the channel bit of its control
/// codes; and the CEA-708 services (SERVICE1 to SERVICE63) whose service blocks the DTVCC packets carry.
struct CaptionChannels: Sendable, Equatable {
    /// The CEA-608 channels seen so far, in order: `CC1` before `CC3`.
    private(set) var present: [String] = []
    /// The CEA-708 services seen so far, in order.
    private(set) var services: [Int] = []
    /// The field of the first CEA-608 pair that held data (0 or 1), which `cc_dec` follows.
    private(set) var firstField: UInt8?
    /// The DTVCC packet being put together from its start (`cc_type` 3) and the data after it (`cc_type` 2);
    /// empty between packets.
    var packet: [UInt8] = []

    /// The channel `cc_dec` turns into text: the first present in the field read first.
    var decodedChannel: String? {
        firstField.flatMap { field in present.first { $0 == "CC\(field * 2 + 1)" || $0 == "CC\(field * 2 + 2)" } }
    }

    /// Notes the CEA-608 channels of the control codes in `bytes` and the CEA-708 services of the DTVCC packets
    /// they complete; padding and triplets marked invalid say nothing.
    mutating func read(_ bytes: [UInt8]) {
        var index = 0
        while index + 2 < bytes.count {
            defer { index += 3 }
            let header = bytes[index]
            let field = header & 0x03
            guard header & 0x04 != 0 else { continue }
            guard field < 2 else {
                assemble(bytes[index + 1], bytes[index + 2], startsPacket: field == 3)
                continue
            }
            let first = bytes[index + 1] & 0x7F
            let second = bytes[index + 2] & 0x7F
            guard first != 0 || second != 0 else { continue }
            if firstField == nil { firstField = field }
            // Control codes and preamble address codes: 0x10–0x1F then 0x20–0x7F; bit 3 of the first byte is the channel.
            guard (0x10...0x1F).contains(first), (0x20...0x7F).contains(second) else { continue }
            let channel = "CC\(Int(field) * 2 + (first & 0x08 == 0 ? 1 : 2))"
            if !present.contains(channel) {
                present.append(channel)
                present.sort()
            }
        }
    }

    /// Notes CEA-708 service `number` as present.
    mutating func noteService(_ number: Int) {
        guard !services.contains(number) else { return }
        services.append(number)
        services.sort()
    }
}
