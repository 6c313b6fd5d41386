/// The defaults a `tfhd` gives the samples of its track fragment.
struct TrackFragmentDefaults {
    /// The base data offset, when the `tfhd` gives one (else the `moof`'s start, `default-base-is-moof`).
    var base: Int?
    var duration: UInt32 = 0
    var size: UInt32 = 0

    init(tfhd: MP4Box, _ bytes: [UInt8]) {
        let flags = MP4Box.uint32(bytes, tfhd.body) & 0xFF_FFFF
        var offset = tfhd.body + 8
        if flags & 0x1 != 0 {
            base = Int(MP4Box.uint64(bytes, offset))
            offset += 8
        }
        if flags & 0x2 != 0 { offset += 4 }
        if flags & 0x8 != 0 {
            duration = MP4Box.uint32(bytes, offset)
            offset += 4
        }
        if flags & 0x10 != 0 { size = MP4Box.uint32(bytes, offset) }
    }
}

/// The samples a `trun` lists: where each lies in the file, its duration and its composition offset.
struct TrackRun: Sequence {
    struct Sample {
        var offset: Int
        var size: Int
        var duration: UInt32
        var compositionOffset: Int64
    }

    private var samples: [Sample] = []

    init(trun: MP4Box, _ bytes: [UInt8], defaults: TrackFragmentDefaults, base: Int) {
        let version = bytes[trun.body]
        let flags = MP4Box.uint32(bytes, trun.body) & 0xFF_FFFF
        let count = Int(MP4Box.uint32(bytes, trun.body + 4))
        var field = trun.body + 8
        var data = base
        if flags & 0x1 != 0 {
            data += Int(Int32(bitPattern: MP4Box.uint32(bytes, field)))
            field += 4
        }
        if flags & 0x4 != 0 { field += 4 }
        for _ in 0 ..< Swift.max(0, Swift.min(count, (trun.end - field) / 4 + 1)) {
            var sample = Sample(offset: data, size: Int(defaults.size), duration: defaults.duration, compositionOffset: 0)
            if flags & 0x100 != 0 { sample.duration = MP4Box.uint32(bytes, field); field += 4 }
            if flags & 0x200 != 0 { sample.size = Int(MP4Box.uint32(bytes, field)); field += 4 }
            if flags & 0x400 != 0 { field += 4 }
            if flags & 0x800 != 0 {
                let raw = MP4Box.uint32(bytes, field)
                sample.compositionOffset = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
                field += 4
            }
            guard field <= trun.end else { break }
            samples.append(sample)
            data += sample.size
        }
    }

    func makeIterator() -> IndexingIterator<[Sample]> { samples.makeIterator() }
}
