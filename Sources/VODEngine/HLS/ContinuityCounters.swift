import Foundation

/// The continuity counters of an MPEG-TS file: the 4-bit count each PID's packets carry, which a demuxer
/// follows across a rendition's segments (a jump reads as lost packets).
enum ContinuityCounters {
    private static let packetSize = 188
    private static let syncByte: UInt8 = 0x47
    private static let nullPID = 0x1FFF

    /// Rewrites the counters of `file`, a segment written by a muxer of its own, so that each PID's last packet
    /// carries the counter of its last packet in `original`, the segment `file` replaces: what followed the
    /// original then follows `file` without a jump. Only the first segment of a rendition may be replaced so,
    /// since nothing comes before it.
    static func align(_ file: URL, endingAs original: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: file))
        let targets = lastCounters(of: [UInt8](try Data(contentsOf: original)))
        let current = lastCounters(of: bytes)
        var shifts: [Int: UInt8] = [:]
        for (pid, counter) in current {
            guard let target = targets[pid] else { continue }
            shifts[pid] = (target &- counter) & 0x0F
        }
        forEachPacket(in: bytes) { offset, pid in
            guard let shift = shifts[pid], shift != 0 else { return }
            let field = bytes[offset + 3]
            bytes[offset + 3] = (field & 0xF0) | ((field &+ shift) & 0x0F)
        }
        try Data(bytes).write(to: file)
    }

    /// The counter of each PID's last packet in `bytes`.
    static func lastCounters(of bytes: [UInt8]) -> [Int: UInt8] {
        var counters: [Int: UInt8] = [:]
        forEachPacket(in: bytes) { offset, pid in counters[pid] = bytes[offset + 3] & 0x0F }
        return counters
    }

    /// Calls `body` with the offset and PID of every packet of `bytes` but null packets.
    private static func forEachPacket(in bytes: [UInt8], _ body: (Int, Int) -> Void) {
        var offset = 0
        while offset + packetSize <= bytes.count {
            if bytes[offset] == syncByte {
                let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
                if pid != nullPID { body(offset, pid) }
            }
            offset += packetSize
        }
    }
}
