extension TransportStreamSegment {
    /// Analyses a stretch of MPEG-TS: a whole segment file, or a byte range of one.
    ///
    /// - Parameters:
    ///   - bytes: The TS packets.
    ///   - knownProgram: The program to assume until a PAT/PMT is read, for byte ranges that start after the file's tables.
    public init(bytes: [UInt8], knownProgram: Program? = nil) {
        var demuxer = Demuxer(program: knownProgram)
        demuxer.read(bytes)
        self = demuxer.segment
    }

    /// Reads the first program of a PAT section, or nil.
    static func pmtPID(inPAT section: ArraySlice<UInt8>) -> UInt16? {
        guard let body = tableBody(section, tableID: 0x00, headerLength: 5) else { return nil }
        var index = body.startIndex + 5
        while index + 4 <= body.endIndex {
            let number = UInt16(body[index]) << 8 | UInt16(body[index + 1])
            let pid = UInt16(body[index + 2] & 0x1F) << 8 | UInt16(body[index + 3])
            if number != 0 { return pid }
            index += 4
        }
        return nil
    }

    /// Reads the elementary streams of a PMT section, or nil.
    static func streams(inPMT section: ArraySlice<UInt8>) -> [ElementaryStream]? {
        guard let body = tableBody(section, tableID: 0x02, headerLength: 9) else { return nil }
        let infoLength = Int(body[body.startIndex + 7] & 0x0F) << 8 | Int(body[body.startIndex + 8])
        var index = body.startIndex + 9 + infoLength
        var streams: [ElementaryStream] = []
        while index + 5 <= body.endIndex {
            let pid = UInt16(body[index + 1] & 0x1F) << 8 | UInt16(body[index + 2])
            streams.append(ElementaryStream(pid: pid, streamType: body[index]))
            index += 5 + (Int(body[index + 3] & 0x0F) << 8 | Int(body[index + 4]))
        }
        return streams
    }

    /// The bytes of a PSI section after section_length and before the CRC, given the payload that starts with
    /// pointer_field; nil unless they hold at least `headerLength` bytes.
    private static func tableBody(_ payload: ArraySlice<UInt8>, tableID: UInt8, headerLength: Int) -> ArraySlice<UInt8>? {
        guard let pointer = payload.first else { return nil }
        let start = payload.startIndex + 1 + Int(pointer)
        guard start + 3 <= payload.endIndex, payload[start] == tableID else { return nil }
        let sectionLength = Int(payload[start + 1] & 0x0F) << 8 | Int(payload[start + 2])
        let bodyStart = start + 3
        let bodyEnd = bodyStart + sectionLength - 4
        guard bodyStart + headerLength <= bodyEnd, bodyEnd <= payload.endIndex else { return nil }
        return payload[bodyStart..<bodyEnd]
    }
}
