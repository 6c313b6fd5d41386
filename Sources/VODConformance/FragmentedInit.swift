/// What an fMP4 init segment (`ftyp` and `moov`, no samples) declares: per track, its kind, time scale and sample
/// entry, with the parameter sets or audio configuration the media segments are decoded with.
struct FragmentedInit {
    struct Track {
        var id: UInt32
        /// The handler: `vide` or `soun`.
        var handler = ""
        var timescale: UInt32 = 0
        /// The sample entry's type: `avc1`, `hvc1`, `hev1`, `mp4a`, `ac-3`, `ec-3`.
        var sampleEntry = ""
        /// The first SPS of an `avcC` or `hvcC`, and whether it has a PPS.
        var sps: [UInt8]?
        var hasPPS = false
        /// The bytes of each NAL unit's length in samples (lengthSizeMinusOne + 1 of the `avcC` or `hvcC`).
        var nalLengthSize = 4

        /// Whether the samples are HEVC.
        var isHEVC: Bool { ["hvc1", "hev1"].contains(sampleEntry) }

        /// The SPS, parsed as the sample entry's coding says.
        var parsedSPS: SequenceParameterSet? {
            sps.flatMap { try? isHEVC ? SequenceParameterSet(hevcNALUnit: $0) : SequenceParameterSet(nalUnit: $0) }
        }
        /// The AAC AudioSpecificConfig of an `esds`, read into the shape of an ADTS header.
        var audio: ADTSHeader?
    }

    var tracks: [Track] = []
    /// Top-level box types, in order.
    var topLevel: [String] = []
    var hasMovieExtends = false
    var problems: [String] = []

    init(bytes: [UInt8]) {
        let top = MP4Box.boxes(in: bytes, from: 0, to: bytes.count, problems: &problems)
        topLevel = top.map(\.type)
        guard let moov = top[type: "moov"] else { return }
        let boxes = moov.children(bytes, problems: &problems)
        hasMovieExtends = boxes[type: "mvex"] != nil
        for trak in boxes where trak.type == "trak" { tracks.append(track(in: trak, bytes)) }
    }

    func track(_ id: UInt32) -> Track? { tracks.first { $0.id == id } }

    private mutating func track(in trak: MP4Box, _ bytes: [UInt8]) -> Track {
        let boxes = trak.children(bytes, problems: &problems)
        let tkhd = boxes[type: "tkhd"]
        var track = Track(id: tkhd.map { MP4Box.uint32(bytes, $0.body + (bytes[$0.body] == 1 ? 20 : 12)) } ?? 0)
        guard let mdia = boxes[type: "mdia"]?.children(bytes, problems: &problems) else { return track }
        if let mdhd = mdia[type: "mdhd"] { track.timescale = MP4Box.uint32(bytes, mdhd.body + (bytes[mdhd.body] == 1 ? 20 : 12)) }
        if let hdlr = mdia[type: "hdlr"] { track.handler = String(decoding: bytes[hdlr.body + 8 ..< hdlr.body + 12], as: UTF8.self) }
        guard let stbl = mdia[type: "minf"]?.children(bytes, problems: &problems)[type: "stbl"],
              let stsd = stbl.children(bytes, problems: &problems)[type: "stsd"],
              let entry = stsd.children(bytes, skip: 8, problems: &problems).first else { return track }
        track.sampleEntry = entry.type
        let isVideo = ["avc1", "avc3", "hvc1", "hev1"].contains(entry.type)
        let configurations = entry.children(bytes, skip: isVideo ? 78 : 28, problems: &problems)
        if let avcC = configurations[type: "avcC"] { read(avcC: avcC, bytes, into: &track) }
        if let hvcC = configurations[type: "hvcC"] { read(hvcC: hvcC, bytes, into: &track) }
        if let esds = configurations[type: "esds"] { track.audio = Self.audioConfig(esds: esds, bytes) }
        return track
    }

    private func read(avcC: MP4Box, _ bytes: [UInt8], into track: inout Track) {
        guard avcC.body + 6 < avcC.end else { return }
        track.nalLengthSize = Int(bytes[avcC.body + 4] & 0x03) + 1
        var offset = avcC.body + 6
        for index in 0 ..< Int(bytes[avcC.body + 5] & 0x1F) {
            let length = MP4Box.uint16(bytes, offset)
            if index == 0, offset + 2 + length <= avcC.end { track.sps = Array(bytes[offset + 2 ..< offset + 2 + length]) }
            offset += 2 + length
        }
        track.hasPPS = offset < avcC.end && bytes[offset] > 0
    }

    /// An HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 8.3.3): 22 bytes of fields, then arrays of parameter
    /// sets, each a byte with its NAL unit type, a count, and each unit after its 2-byte length.
    private func read(hvcC: MP4Box, _ bytes: [UInt8], into track: inout Track) {
        guard hvcC.body + 23 <= hvcC.end else { return }
        track.nalLengthSize = Int(bytes[hvcC.body + 21] & 0x03) + 1
        var offset = hvcC.body + 23
        for _ in 0 ..< Int(bytes[hvcC.body + 22]) {
            guard offset + 3 <= hvcC.end else { return }
            let type = bytes[offset] & 0x3F
            let count = MP4Box.uint16(bytes, offset + 1)
            offset += 3
            for _ in 0 ..< count {
                guard offset + 2 <= hvcC.end else { return }
                let length = MP4Box.uint16(bytes, offset)
                guard offset + 2 + length <= hvcC.end else { return }
                if type == 33, track.sps == nil { track.sps = Array(bytes[offset + 2 ..< offset + 2 + length]) }
                if type == 34, length > 0 { track.hasPPS = true }
                offset += 2 + length
            }
        }
    }

    /// The AudioSpecificConfig in the DecoderSpecificInfo (tag 5) of an `esds`, as object type, rate and channels.
    private static func audioConfig(esds: MP4Box, _ bytes: [UInt8]) -> ADTSHeader? {
        var offset = esds.body + 4
        while offset + 2 < esds.end {
            let tag = bytes[offset]
            var length = 0
            offset += 1
            while offset < esds.end {
                let byte = bytes[offset]
                length = length << 7 | Int(byte & 0x7F)
                offset += 1
                if byte & 0x80 == 0 { break }
            }
            switch tag {
            case 0x03: offset += 3
            case 0x04: offset += 13
            case 0x05:
                guard offset + 2 <= esds.end else { return nil }
                return ADTSHeader(audioSpecificConfig: bytes[offset ..< offset + 2])
            default: offset += length
            }
        }
        return nil
    }
}
