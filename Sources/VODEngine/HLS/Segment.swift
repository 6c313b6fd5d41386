/// One media segment of a rendition, as listed in its media playlist.
struct Segment: Sendable, Equatable {
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
struct IFrame: Sendable, Equatable {
    var segmentIndex: Int
    var offset: Int64
    var length: Int64
    /// Seconds from the start of the title.
    var time: Double
    /// Seconds until the next I-frame or the end of the title.
    var duration: Double
}

/// Everything the playlist writer needs to know about one finished rendition.
struct Rendition: Sendable, Equatable {
    var rung: PlannedRung
    var segments: [Segment]
    var iFrames: [IFrame]
    var videoCodec: String
    var audioCodec: String?
    var frameRate: Double

    /// The CODECS attribute: video first, then audio.
    var codecs: String { [videoCodec, audioCodec].compactMap { $0 }.joined(separator: ",") }
}

/// One audio track written as an audio-only rendition, for the master's `#EXT-X-MEDIA:TYPE=AUDIO`.
struct AudioRendition: Sendable, Equatable {
    /// The track's place among the renditions, which names its folder.
    var index: Int
    var name: String
    /// The RFC 5646 language, when the source says.
    var language: String?
    var isDefault: Bool
    var channels: Int
    /// The RFC 6381 codec, such as `mp4a.40.2`.
    var codec: String
    var segments: [Segment]

    /// The folder of rendition `index`, such as `audio_0`.
    static func folder(_ index: Int) -> String { "audio_\(index)" }

    /// The media playlist's path relative to the output folder.
    var playlist: String { "\(Self.folder(index))/\(PlaylistWriter.mediaPlaylist)" }
}

/// One text subtitle track written as a WebVTT rendition, for the master's `#EXT-X-MEDIA:TYPE=SUBTITLES`.
struct SubtitleRendition: Sendable, Equatable {
    /// The track's place among the renditions, which names its folder.
    var index: Int
    var name: String
    /// The RFC 5646 language, when the source says.
    var language: String?
    var isDefault: Bool
    var isForced: Bool
    var segments: [Segment]

    /// The folder of rendition `index`, such as `subtitles_0`.
    static func folder(_ index: Int) -> String { "subtitles_\(index)" }

    /// The media playlist's path relative to the output folder.
    var playlist: String { "\(Self.folder(index))/\(PlaylistWriter.mediaPlaylist)" }
}
