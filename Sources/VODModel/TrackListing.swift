/// One track of the source as `vod probe` and the media JSON list it: what it is, and what became of it.
public struct TrackListing: Sendable, Equatable, Codable {
    /// What became of a track.
    public enum Status: String, Sendable, Codable {
        /// It reaches the player: the video ladder, or an audio or subtitle rendition.
        case rendition
        /// It is left out, for `reason`.
        case skipped
    }

    /// The stream's index in the file.
    public var index: Int
    /// `video`, `audio` or `subtitle`.
    public var type: String
    /// The codec's FFmpeg name, such as `h264` or `subrip`.
    public var codec: String
    /// The RFC 5646 language, when the source says.
    public var language: String?
    /// The track's own title, when the source gives one.
    public var title: String?
    /// Audio: the source's channel count.
    public var channels: Int?
    /// Whether the source marks it as the default of its type.
    public var isDefault: Bool
    /// Whether the source marks it as forced (subtitles shown even with subtitles off).
    public var isForced: Bool
    /// Whether it became a rendition or was skipped.
    public var status: Status
    /// The rendition's NAME in the master (nil for the video, which is the ladder itself).
    public var rendition: String?
    /// Why the track was left out.
    public var reason: String?
    /// Audio made into a rendition: the source track's loudness, measured as it was transcoded; null before then
    /// and for other tracks.
    public var loudness: Loudness?
    /// The video made into the ladder: the CEA-608 caption channels and CEA-708 services its pictures carry, each
    /// kept in every rung and announced in the master, once the title is transcoded (`[]` when it has none); null
    /// before then (the upload's probe reads no picture) and for other tracks.
    public var closedCaptions: [ClosedCaptionListing]?

    /// The keys of a `tracks` entry.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case index, type, codec, language, title, channels, status, rendition, reason, loudness
        case closedCaptions = "closed_captions"
        case isDefault = "default"
        case isForced = "forced"
    }

    /// A listing of these values; `vod` makes them from its probe of the file.
    public init(
        index: Int, type: String, codec: String, language: String?, title: String?, channels: Int?, isDefault: Bool,
        isForced: Bool, status: Status, rendition: String?, reason: String?, loudness: Loudness? = nil
    ) {
        self.index = index
        self.type = type
        self.codec = codec
        self.language = language
        self.title = title
        self.channels = channels
        self.isDefault = isDefault
        self.isForced = isForced
        self.status = status
        self.rendition = rendition
        self.reason = reason
        self.loudness = loudness
    }

    /// Writes absent values as JSON null, so clients always find every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(type, forKey: .type)
        try container.encode(codec, forKey: .codec)
        try container.encode(language, forKey: .language)
        try container.encode(title, forKey: .title)
        try container.encode(channels, forKey: .channels)
        try container.encode(isDefault, forKey: .isDefault)
        try container.encode(isForced, forKey: .isForced)
        try container.encode(status, forKey: .status)
        try container.encode(rendition, forKey: .rendition)
        try container.encode(reason, forKey: .reason)
        try container.encode(loudness, forKey: .loudness)
        try container.encode(closedCaptions, forKey: .closedCaptions)
    }
}
