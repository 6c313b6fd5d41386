/// One chapter of a title, as `vod probe` and the media JSON list it: `{"start", "end", "title"}`.
public struct Chapter: Sendable, Equatable, Codable {
    /// Where the chapter starts, in seconds.
    public var start: Double
    /// Where the chapter ends, in seconds.
    public var end: Double
    /// The chapter's title, when the source gives one.
    public var title: String?

    /// The keys of a `chapters` entry.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case start, end, title
    }

    /// A chapter of these values.
    public init(start: Double, end: Double, title: String?) {
        self.start = start
        self.end = end
        self.title = title
    }

    /// Writes an absent title as JSON null, so clients always find every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(title, forKey: .title)
    }
}
