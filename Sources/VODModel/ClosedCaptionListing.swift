/// One CEA-608 caption channel or CEA-708 caption service a source's video carries, as the video's entry of
/// `tracks` lists it.
public struct ClosedCaptionListing: Sendable, Equatable, Codable {
    /// The channel as the master's `INSTREAM-ID` names it: `CC1` to `CC4` (CEA-608), `SERVICE1` to `SERVICE63`
    /// (CEA-708).
    public var instreamID: String
    /// The RFC 5646 language given to it (the video's, else its default audio track's), when the source says.
    public var language: String?
    /// Its NAME in the master, both as `CLOSED-CAPTIONS` and, for the channel turned into text, as the WebVTT
    /// subtitle rendition.
    public var rendition: String
    /// Whether its text is also a WebVTT subtitle rendition (one CEA-608 channel is: the first of the field read
    /// first; a CEA-708 service never is).
    public var hasWebVTT: Bool

    /// The keys of a `closed_captions` entry.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case instreamID = "instream_id"
        case language, rendition
        case hasWebVTT = "webvtt"
    }

    public init(instreamID: String, language: String?, rendition: String, hasWebVTT: Bool) {
        self.instreamID = instreamID
        self.language = language
        self.rendition = rendition
        self.hasWebVTT = hasWebVTT
    }

    /// Writes an absent language as JSON null, so clients always find every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(instreamID, forKey: .instreamID)
        try container.encode(language, forKey: .language)
        try container.encode(rendition, forKey: .rendition)
        try container.encode(hasWebVTT, forKey: .hasWebVTT)
    }
}
