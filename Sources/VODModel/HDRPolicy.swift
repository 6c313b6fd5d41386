/// What a title made from an HDR source (PQ, HLG, or Dolby Vision 8.x with an HDR10 or HLG base layer) offers
/// HDR screens.
///
/// The raw values are the names `--hdr` takes.
public enum HDRPolicy: String, Sendable, Codable, CaseIterable {
    /// An HDR rendition in HEVC Main10 beside the tone-mapped SDR H.264 ladder, keeping the source's transfer,
    /// primaries and light levels, in fMP4 (also in an MPEG-TS title), since HLS carries HEVC in fMP4 only.
    case keep
    /// The tone-mapped SDR ladder alone.
    case sdr
}
