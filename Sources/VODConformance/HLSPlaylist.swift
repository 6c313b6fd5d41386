import Foundation

/// A parsed HLS playlist: a master (multivariant) playlist or a media playlist.
///
/// Parsing never traps: text it cannot make sense of is reported in ``issues``.
public enum HLSPlaylist: Sendable {
    case master(MasterPlaylist)
    case media(MediaPlaylist)

    /// Problems found while parsing: a byte order mark, a missing `#EXTM3U`, malformed lines.
    public var issues: [PlaylistIssue] {
        switch self {
        case .master(let playlist): playlist.issues
        case .media(let playlist): playlist.issues
        }
    }
}

/// Something wrong with a playlist's text.
public struct PlaylistIssue: Sendable, Equatable {
    /// What kind of problem it is.
    public enum Kind: Sendable, Equatable {
        /// The file starts with a UTF-8 byte order mark.
        case byteOrderMark
        /// The first line is not `#EXTM3U`.
        case missingHeader
        /// A tag, attribute or URI line is malformed.
        case syntax
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// The 1-based line number.
    public let line: Int
    /// A human-readable description.
    public let message: String
}

/// A master (multivariant) playlist.
public struct MasterPlaylist: Sendable {
    /// `#EXT-X-VERSION`, when present.
    public internal(set) var version: Int?
    /// Whether `#EXT-X-INDEPENDENT-SEGMENTS` is present.
    public internal(set) var independentSegments = false
    /// The `#EXT-X-STREAM-INF` variants, in playlist order.
    public internal(set) var variants: [VariantStream] = []
    /// The `#EXT-X-I-FRAME-STREAM-INF` streams, in playlist order.
    public internal(set) var iFrameStreams: [VariantStream] = []
    /// The `#EXT-X-MEDIA` renditions, in playlist order.
    public internal(set) var renditions: [MediaRendition] = []
    /// Problems found while parsing.
    public internal(set) var issues: [PlaylistIssue] = []
}

/// An `#EXT-X-STREAM-INF` variant or an `#EXT-X-I-FRAME-STREAM-INF` stream.
public struct VariantStream: Sendable {
    /// The tag's attributes.
    public let attributes: AttributeList
    /// The playlist URI: the line after `#EXT-X-STREAM-INF`, or the `URI` attribute of an I-frame stream.
    public let uri: String?
    /// The 1-based line number of the tag.
    public let line: Int

    /// `BANDWIDTH` in bits per second.
    public var bandwidth: Int? { attributes["BANDWIDTH"].flatMap { Int($0) } }
    /// `AVERAGE-BANDWIDTH` in bits per second.
    public var averageBandwidth: Int? { attributes["AVERAGE-BANDWIDTH"].flatMap { Int($0) } }
    /// `RESOLUTION` as width and height.
    public var resolution: Resolution? { attributes["RESOLUTION"].flatMap(Resolution.init) }
    /// `FRAME-RATE` as a number.
    public var frameRate: Double? { attributes["FRAME-RATE"].flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil } }
    /// `AUDIO`: the GROUP-ID of the audio renditions that play with this variant.
    public var audioGroup: String? { attributes["AUDIO"] }
    /// `SUBTITLES`: the GROUP-ID of the subtitle renditions that play with this variant.
    public var subtitlesGroup: String? { attributes["SUBTITLES"] }
    /// The `CODECS` entries, trimmed.
    public var codecs: [String]? {
        attributes["CODECS"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}

/// A `RESOLUTION` value.
public struct Resolution: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// A resolution of `width` × `height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `<width>x<height>`.
    public init?(_ text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }
}

/// A media playlist: a rung's segments, or the byte ranges of an I-frame playlist.
public struct MediaPlaylist: Sendable {
    /// `#EXT-X-VERSION`, when present.
    public internal(set) var version: Int?
    /// The text of `#EXT-X-TARGETDURATION`, when present.
    public internal(set) var targetDurationText: String?
    /// `#EXT-X-PLAYLIST-TYPE`, when present.
    public internal(set) var playlistType: String?
    /// `#EXT-X-MEDIA-SEQUENCE`, when present.
    public internal(set) var mediaSequence: Int?
    /// How many `#EXT-X-ENDLIST` tags there are.
    public internal(set) var endListCount = 0
    /// Whether `#EXT-X-I-FRAMES-ONLY` is present.
    public internal(set) var iFramesOnly = false
    /// The `URI` of `#EXT-X-MAP`, when present.
    public internal(set) var mapURI: String?
    /// The segments in order.
    public internal(set) var segments: [MediaSegment] = []
    /// Problems found while parsing.
    public internal(set) var issues: [PlaylistIssue] = []

    /// `#EXT-X-TARGETDURATION` when it is a decimal integer.
    public var targetDuration: Int? {
        targetDurationText.flatMap { text in text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) ? Int(text) : nil }
    }

    /// The sum of the segments' EXTINF durations in seconds.
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }
}

/// One media segment of a media playlist.
public struct MediaSegment: Sendable {
    /// The EXTINF duration in seconds.
    public let duration: Double
    /// The EXTINF duration as written.
    public let durationText: String
    /// The segment URI as written.
    public let uri: String
    /// The `#EXT-X-BYTERANGE`, with its offset resolved.
    public let byteRange: ByteRange?
    /// The 1-based line number of the URI.
    public let line: Int
}

/// A byte range of a resource, `length@offset`.
public struct ByteRange: Sendable, Equatable {
    /// Length in bytes.
    public let length: Int
    /// Offset of the first byte.
    public let offset: Int
}
