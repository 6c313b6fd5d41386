extension CaptionChannels {
    /// Adds one DTVCC byte pair to the packet being put together: a pair that starts a packet first reads what
    /// the previous one holds (a packet cut short still names its whole service blocks), and a packet read to its
    /// size is read at once. Pairs before the first start belong to a packet begun earlier and are left out.
    mutating func assemble(_ first: UInt8, _ second: UInt8, startsPacket: Bool) {
        if startsPacket {
            readServiceBlocks()
            packet = []
        } else if packet.isEmpty {
            return
        }
        packet += [first, second]
        if packet.count >= Self.packetSize(header: packet[0]) {
            readServiceBlocks()
            packet = []
        }
    }

    /// The size in bytes of a DTVCC packet, its header included (CEA-708 `packet_size_code`: 0 stands for 128).
    static func packetSize(header: UInt8) -> Int {
        let code = Int(header & 0x3F)
        return code == 0 ? 128 : code * 2
    }

    /// Notes the service of every whole service block of the packet: a 3-bit service number and a 5-bit size, the
    /// number 7 followed by an extended header byte naming services 7 to 63; a null block (service 0) ends the
    /// packet's data.
    private mutating func readServiceBlocks() {
        guard let header = packet.first else { return }
        let end = min(packet.count, Self.packetSize(header: header))
        var index = 1
        while index < end {
            var service = Int(packet[index] >> 5)
            let size = Int(packet[index] & 0x1F)
            index += 1
            if service == 0 { return }
            if service == 7 {
                guard index < end else { return }
                service = Int(packet[index] & 0x3F)
                index += 1
            }
            guard index + size <= end else { return }
            if size > 0, (1...63).contains(service) { noteService(service) }
            index += size
        }
    }
}
