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
