/// The NAL units of an Annex B byte stream (H.264 or HEVC, as the encoders write them): each one's bytes after
/// its start code.
enum AnnexB {
    /// The ranges of the NAL units of `bytes`, in order, each without its start code.
    static func units(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var starts: [(code: Int, unit: Int)] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                let code = index > 0 && bytes[index - 1] == 0 ? index - 1 : index
                starts.append((code, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.indices.map { position in
            starts[position].unit ..< (position + 1 < starts.count ? starts[position + 1].code : bytes.count)
        }
    }
}

/// The parameter sets at the start of a keyframe, which the MP4 muxer writes into the sample entry (`avcC`,
/// `hvcC`) of a rendition whose encoder keeps them in-band.
enum ParameterSets {
    /// The SPS and PPS (H.264), or VPS, SPS and PPS (HEVC), of an Annex B keyframe, as Annex B; nil for another
    /// codec or when there are none.
    static func annexB(in bytes: UnsafeBufferPointer<UInt8>, codec: String) -> [UInt8]? {
        let isParameterSet: (UInt8) -> Bool
        switch codec {
        case "h264": isParameterSet = { (7...8).contains($0 & 0x1F) }
        case "hevc": isParameterSet = { (32...34).contains(($0 >> 1) & 0x3F) }
        default: return nil
        }
        let sets = AnnexB.units(in: bytes).filter { !$0.isEmpty && isParameterSet(bytes[$0.lowerBound]) }
        guard !sets.isEmpty else { return nil }
        return sets.flatMap { [0, 0, 0, 1] + Array(bytes[$0]) }
    }
}
