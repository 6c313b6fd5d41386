/// The container of a title's media segments.
///
/// The raw values are the `segment_format` strings of the media JSON and of `--segment-format`.
public enum SegmentFormat: String, Sendable, Codable, CaseIterable {
    /// MPEG-TS segments (`.ts`), each with its own PAT and PMT: the default, which every HLS player reads.
    case ts
    /// Fragmented MP4 (CMAF) segments (`.m4s`, `styp`/`moof`/`mdat`) after one init segment per rendition
    /// (`init.mp4`, named by `#EXT-X-MAP`), which a DASH manifest can also describe.
    case fmp4
}

extension KeyedDecodingContainer {
    /// A segment format that is missing reads as `ts`: items written before titles had one, and servers that
    /// predate it, made MPEG-TS.
    public func decode(_ type: SegmentFormat.Type, forKey key: Key) throws -> SegmentFormat {
        try decodeIfPresent(type, forKey: key) ?? .ts
    }
}
