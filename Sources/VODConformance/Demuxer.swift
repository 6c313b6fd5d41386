/// Splits TS packets into PSI tables and PES packets, and feeds the PES packets to the video and audio readers.
struct Demuxer {
    private struct PendingPES {
        var bytes: [UInt8] = []
        var byteOffset: Int
    }

    private(set) var segment = TransportStreamSegment()
    private var pmtPID: UInt16?
    private var pending: [UInt16: PendingPES] = [:]
    private var continuity: [UInt16: UInt8] = [:]
    private var sawElementaryPacket = false
    private var patBeforeElementary = false
    /// Whether a packet other than PAT, PMT or SI (PIDs up to 0x1F) came before the PAT.
    private var sawOtherPacket = false
    private var pmtBeforeElementary = false
    private var sawSPS = false
    private var sawPPS = false
    private var sawSlice = false
    private var timestampReference: Int64?

    init(program: TransportStreamSegment.Program?) {
        if let program { adopt(program) }
    }

    mutating func read(_ bytes: [UInt8]) {
        let size = TransportStreamSegment.packetSize
        if bytes.count % size != 0 {
            segment.problems.append("\(bytes.count) bytes is not a whole number of \(size)-byte packets")
        }
        var offset = 0
        while offset + size <= bytes.count {
            guard bytes[offset] == 0x47 else {
                segment.problems.append("packet at byte \(offset) has no 0x47 sync byte")
                offset += size
                continue
            }
            readPacket(bytes[offset..<offset + size], at: offset)
            segment.packetCount += 1
            offset += size
        }
        for pid in pending.keys.sorted() { flush(pid) }
        segment.startsWithProgramTables = patBeforeElementary && pmtBeforeElementary
    }

    private mutating func adopt(_ program: TransportStreamSegment.Program) {
        pmtPID = program.pmtPID
        segment.program = program
        if segment.video == nil, let stream = program.streams.first(where: { $0.streamType == 0x1B }) {
            segment.video = VideoStream(pid: stream.pid)
        }
        if segment.audio.isEmpty {
            segment.audio = program.streams.filter(\.isAudio)
                .map { AudioStream(pid: $0.pid, streamType: $0.streamType) }
        }
    }

    private mutating func readPacket(_ packet: ArraySlice<UInt8>, at offset: Int) {
        let base = packet.startIndex
        let unitStart = packet[base + 1] & 0x40 != 0
        let pid = UInt16(packet[base + 1] & 0x1F) << 8 | UInt16(packet[base + 2])
        let adaptation = (packet[base + 3] >> 4) & 3
        if pid > 0x1F && pid != pmtPID { sawOtherPacket = true }
        var payloadStart = base + 4
        if adaptation & 2 != 0 { payloadStart += 1 + Int(packet[base + 4]) }
        guard adaptation & 1 != 0, payloadStart < packet.endIndex else { return }
        checkContinuity(pid: pid, counter: packet[base + 3] & 0x0F, at: offset)
        let payload = packet[payloadStart...]

        if pid == 0 {
            if unitStart, let pmt = TransportStreamSegment.pmtPID(inPAT: payload) {
                pmtPID = pmt
                if !sawElementaryPacket && !sawOtherPacket { patBeforeElementary = true }
            }
        } else if pid == pmtPID {
            if unitStart, let streams = TransportStreamSegment.streams(inPMT: payload) {
                if !sawElementaryPacket { pmtBeforeElementary = true }
                if segment.program?.streams != streams {
                    segment.video = nil
                    segment.audio = []
                    adopt(TransportStreamSegment.Program(pmtPID: pid, streams: streams))
                }
            }
        } else if segment.program?.streams.contains(where: { $0.pid == pid }) == true {
            sawElementaryPacket = true
            if unitStart {
                flush(pid)
                pending[pid] = PendingPES(byteOffset: offset)
            }
            pending[pid]?.bytes.append(contentsOf: payload)
        }
    }

    private mutating func checkContinuity(pid: UInt16, counter: UInt8, at offset: Int) {
        defer { continuity[pid] = counter }
        guard let last = continuity[pid], counter != last, counter != (last + 1) & 0x0F else { return }
        segment.problems.append("continuity counter of PID \(pid) jumps from \(last) to \(counter) at byte \(offset)")
    }

    private mutating func flush(_ pid: UInt16) {
        guard let pes = pending.removeValue(forKey: pid) else { return }
        do {
            let packet = try PESPacket(pes.bytes)
            guard let rawPTS = packet.pts else { throw ConformanceError.malformedBitstream("PES packet has no PTS") }
            let reference = timestampReference ?? rawPTS
            timestampReference = reference
            let pts = Timestamp.unwrap(rawPTS, near: reference)
            let dts = Timestamp.unwrap(packet.dts ?? rawPTS, near: reference)
            if segment.video?.pid == pid {
                addVideo(packet.payload, pts: pts, dts: dts, byteOffset: pes.byteOffset)
            } else if let index = segment.audio.firstIndex(where: { $0.pid == pid }) {
                try addAudio(packet.payload, pts: pts, to: index)
            }
        } catch {
            segment.problems.append("PES packet of PID \(pid) at byte \(pes.byteOffset): \(error)")
        }
    }

    private mutating func addVideo(_ payload: ArraySlice<UInt8>, pts: Int64, dts: Int64, byteOffset: Int) {
        let units = NALUnit.split(annexB: Array(payload), throughFirstSlice: true)
        for unit in units where !sawSlice {
            switch unit.type {
            case 7:
                sawSPS = true
                if segment.video?.sps == nil {
                    do {
                        segment.video?.sps = try SequenceParameterSet(rbsp: unit.rbsp)
                    } catch {
                        segment.problems.append("SPS at byte \(byteOffset): \(error)")
                    }
                }
            case 8:
                sawPPS = true
            case 1...5:
                sawSlice = true
                segment.video?.parameterSetsBeforeFirstSlice = sawSPS && sawPPS
            default:
                break
            }
        }
        var access = VideoAccessUnit(pts: pts, dts: dts, nalTypes: units.map(\.type), byteOffset: byteOffset)
        access.carriesCaptions = units.contains { $0.type == 6 && $0.carriesA53Captions }
        segment.video?.accessUnits.append(access)
    }

    private mutating func addAudio(_ payload: ArraySlice<UInt8>, pts: Int64, to index: Int) throws(ConformanceError) {
        let isDolby = [0x81, 0x87].contains(segment.audio[index].streamType)
        guard isDolby || segment.audio[index].streamType == 0x0F else { return }
        var start = payload.startIndex
        var time = Double(pts)
        while start < payload.endIndex {
            let length: Int
            if isDolby {
                let frame = try DolbySyncFrame(payload[start...])
                if segment.audio[index].syncFrame == nil { segment.audio[index].syncFrame = frame }
                (length, time) = (frame.frameLength, time + frame.durationTicks)
                segment.audio[index].frameCount += 1
            } else {
                let header = try ADTSHeader(payload[start...])
                if segment.audio[index].header == nil { segment.audio[index].header = header }
                (length, time) = (header.frameLength, time + header.durationTicks)
                segment.audio[index].frameCount += header.rawDataBlocks
            }
            guard start + length <= payload.endIndex else {
                throw .malformedBitstream("\(isDolby ? "AC-3" : "ADTS") frame runs past the end of its PES packet")
            }
            if segment.audio[index].firstPTS == nil { segment.audio[index].firstPTS = pts }
            start += length
        }
        segment.audio[index].endPTS = Int64(time.rounded())
    }
}
