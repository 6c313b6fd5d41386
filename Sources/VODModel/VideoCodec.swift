/// The video coding of a rendition.
///
/// The raw values are the names `--codecs` takes.
public enum VideoCodec: String, Sendable, Codable, CaseIterable {
    /// H.264 High profile (libx264): the ladder every title gets, which every HLS player reads.
    case h264
    /// HEVC Main (libx265) in fMP4 segments, tagged `hvc1`: an opt-in ladder beside H.264 for players that prefer
    /// it, the same picture in fewer bits.
    case hevc
}
