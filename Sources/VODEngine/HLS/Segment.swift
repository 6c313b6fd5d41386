/// One media segment of a rendition, as listed in its media playlist.
struct Segment: Sendable, Equatable, Codable {
    /// The file name inside the rung folder, such as `segment_000.ts`.
    var fileName: String
    /// Seconds from the start of the title to the segment's first frame.
    var start: Double
    /// The segment's duration in seconds.
    var duration: Double
    /// The segment's size in bytes.
    var bytes: Int64
}

/// One I-frame of a rendition: the byte range of a segment holding PAT, PMT and the IDR picture.
struct IFrame: Sendable, Equatable, Codable {
    var segmentIndex: Int
    var offset: Int64
    var length: Int64
    /// Seconds from the start of the title.
    var time: Double
    /// Seconds until the next I-frame or the end of the title.
    var duration: Double
}

/// Everything the playlist writer needs to know about one finished rendition.
struct Rendition: Sendable, Equatable, Codable {
    var rung: PlannedRung
    var segments: [Segment]
    var iFrames: [IFrame]
    var videoCodec: String
    var audioCodec: String?
    var frameRate: Double

    /// The CODECS attribute: video first, then audio.
    var codecs: String { [videoCodec, audioCodec].compactMap { $0 }.joined(separator: ",") }

    /// This rendition with its first `count` segments and their I-frames.
    func prefix(_ count: Int) -> Rendition {
        var rendition = self
        rendition.segments = Array(segments.prefix(count))
        rendition.iFrames = iFrames.filter { $0.segmentIndex < count }
        return rendition
    }
}

/// An alternate rendition the master lists with `#EXT-X-MEDIA`: an audio track written as audio-only
/// segments, or a subtitle track written as WebVTT.
struct AlternateRendition: Sendable, Equatable {
    enum Kind: String, Sendable {
        case audio
        case subtitles
        /// A caption file uploaded after the transcode: subtitles, numbered by the caption's id.
        case captions
    }

    var kind: Kind
    /// The track's place among the renditions of its kind, which names its folder.
    var index: Int
    var name: String
    /// The RFC 5646 language, when the source says.
    var language: String?
    var isDefault: Bool
    /// Subtitles: whether the track is forced (shown even when subtitles are off).
    var isForced = false
    /// Audio: the channel count.
    var channels = 0
    /// Audio: the RFC 6381 codec, such as `mp4a.40.2`.
    var codec = ""
    /// The master's group: `aac` or `ac3` for audio, `subs` for subtitles.
    var group = "subs"
    var segments: [Segment] = []

    /// The folder of rendition `index` of `kind`, such as `audio_0`, `subtitles_1` or `captions_12`.
    static func folder(_ kind: Kind, _ index: Int) -> String { "\(kind.rawValue)_\(index)" }

    /// The media playlist's path relative to the output folder.
    var playlist: String { "\(Self.folder(kind, index))/\(PlaylistWriter.mediaPlaylist)" }
}
