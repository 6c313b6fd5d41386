/// One ISO BMFF box (ISO/IEC 14496-12) of a byte array: its four-character type and where its header and body lie.
struct MP4Box {
    let type: String
    let start: Int
    let body: Int
    let end: Int

    /// The boxes laid one after another between `start` and `end`; `problems` tells of a size that does not fit.
    static func boxes(in bytes: [UInt8], from start: Int, to end: Int, problems: inout [String]) -> [MP4Box] {
        var found: [MP4Box] = []
        var offset = start
        while offset + 8 <= end {
            var size = Int(MP4Box.uint32(bytes, offset))
            var header = 8
            if size == 1 {
                size = Int(MP4Box.uint64(bytes, offset + 8))
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            let type = String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self)
            guard size >= header, offset + size <= end || type == "mdat" else {
                problems.append("box '\(type)' at byte \(offset) claims \(size) bytes, past the end at \(end)")
                break
            }
            found.append(MP4Box(type: type, start: offset, body: offset + header, end: min(offset + size, end)))
            offset += size
        }
        return found
    }

    /// The children of this box, which start `skip` bytes into its body (a full box's version and flags, a
    /// sample entry's fields).
    func children(_ bytes: [UInt8], skip: Int = 0, problems: inout [String]) -> [MP4Box] {
        MP4Box.boxes(in: bytes, from: body + skip, to: end, problems: &problems)
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        return bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func uint64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(uint32(bytes, offset)) << 32 | UInt64(uint32(bytes, offset + 4))
    }

    static func uint16(_ bytes: [UInt8], _ offset: Int) -> Int {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }
}

extension Array where Element == MP4Box {
    /// The first box of type `type`.
    subscript(type type: String) -> MP4Box? { first { $0.type == type } }
}
