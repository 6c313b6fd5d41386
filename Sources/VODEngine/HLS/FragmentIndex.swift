import Foundation

/// Reads where the fragments of an fMP4 media segment start: for each `moof`, the bytes from the `moof` to the end
/// of one track's first sample in the `mdat` that follows, which is what an I-frame playlist's byte range names
/// when every keyframe starts a fragment (`FragmentedSegmentFiles`).
enum FragmentIndex {
    /// The range of the first sample of track `track` in each fragment of the segment at `url`, in order.
    static func firstSamples(in url: URL, track: UInt32) throws -> [ByteRange] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var ranges: [ByteRange] = []
        for box in boxes(in: bytes, from: 0, to: bytes.count) where box.type == "moof" {
            for traf in boxes(in: bytes, from: box.body, to: box.end) where traf.type == "traf" {
                let children = boxes(in: bytes, from: traf.body, to: traf.end)
                guard let tfhd = children.first(where: { $0.type == "tfhd" }), word(bytes, tfhd.body + 4) == track,
                      let trun = children.first(where: { $0.type == "trun" }),
                      let end = firstSampleEnd(bytes, trun: trun, tfhd: tfhd) else { continue }
                ranges.append(ByteRange(offset: Int64(box.start), length: Int64(end)))
            }
        }
        return ranges
    }

    /// The end of a `trun`'s first sample, counted from the start of its `moof` (`default-base-is-moof`): its
    /// data offset plus its size, from the `trun` or else the `tfhd`'s default.
    private static func firstSampleEnd(_ bytes: [UInt8], trun: Box, tfhd: Box) -> Int? {
        let flags = word(bytes, trun.body) & 0xFF_FFFF
        guard flags & 0x1 != 0, word(bytes, trun.body + 4) > 0 else { return nil }
        let dataOffset = Int(Int32(bitPattern: word(bytes, trun.body + 8)))
        var field = trun.body + 12 + (flags & 0x4 != 0 ? 4 : 0) + (flags & 0x100 != 0 ? 4 : 0)
        if flags & 0x200 != 0 { return dataOffset + Int(word(bytes, field)) }
        let tfhdFlags = word(bytes, tfhd.body) & 0xFF_FFFF
        guard tfhdFlags & 0x10 != 0 else { return nil }
        field = tfhd.body + 8 + [0x1: 8, 0x2: 4, 0x8: 4].reduce(0) { $0 + (tfhdFlags & UInt32($1.key) != 0 ? $1.value : 0) }
        return dataOffset + Int(word(bytes, field))
    }

    struct Box {
        let type: String
        let start: Int
        let body: Int
        let end: Int
    }

    /// The boxes between `start` and `end`, stopping at one whose size does not fit.
    static func boxes(in bytes: [UInt8], from start: Int, to end: Int) -> [Box] {
        var found: [Box] = []
        var offset = start
        while offset + 8 <= end {
            let size = Int(word(bytes, offset))
            guard size >= 8, offset + size <= end else { break }
            found.append(Box(type: String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self), start: offset,
                             body: offset + 8, end: offset + size))
            offset += size
        }
        return found
    }

    private static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
