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
    public var codec: String
    /// The RFC 5646 language, when the source says.
    public var language: String?
    public var title: String?
    /// Audio: the source's channel count.
    public var channels: Int?
    public var isDefault: Bool
    public var isForced: Bool
    public var status: Status
    /// The rendition's NAME in the master (nil for the video, which is the ladder itself).
    public var rendition: String?
    /// Why the track was left out.
    public var reason: String?

    enum CodingKeys: String, CodingKey {
        case index, type, codec, language, title, channels, status, rendition, reason
        case isDefault = "default"
        case isForced = "forced"
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
    }
}
