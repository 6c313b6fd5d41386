/// An `#EXT-X-MEDIA` rendition of a master playlist: an alternate audio track, a subtitles track, or another media type.
public struct MediaRendition: Sendable {
    /// The tag's attributes.
    public let attributes: AttributeList
    /// The 1-based line number of the tag.
    public let line: Int

    /// `TYPE`: `AUDIO`, `SUBTITLES`, `VIDEO` or `CLOSED-CAPTIONS`.
    public var type: String? { attributes["TYPE"] }
    /// `GROUP-ID`.
    public var groupID: String? { attributes["GROUP-ID"] }
    /// `NAME`.
    public var name: String? { attributes["NAME"] }
    /// `LANGUAGE`, when present.
    public var language: String? { attributes["LANGUAGE"] }
    /// `URI` of the rendition's media playlist, when present.
    public var uri: String? { attributes["URI"] }
    /// `CHANNELS` as written, when present.
    public var channels: String? { attributes["CHANNELS"] }
    /// `FORCED` as written, when present.
    public var forced: String? { attributes["FORCED"] }
    /// Whether `DEFAULT=YES`.
    public var isDefault: Bool { attributes["DEFAULT"] == "YES" }
    /// Whether `AUTOSELECT=YES`.
    public var isAutoselect: Bool { attributes["AUTOSELECT"] == "YES" }

    /// How the rendition is named in messages: its NAME, group and line.
    var label: String { "\(type ?? "EXT-X-MEDIA") rendition \"\(name ?? "")\" of group \"\(groupID ?? "")\" (line \(line))" }
}
