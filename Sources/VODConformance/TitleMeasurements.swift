/// The numbers measured on a title, for tests and reports. Times are in seconds on the title's PTS timeline.
public struct TitleMeasurements: Sendable, Encodable {
    /// One entry per media playlist checked, in master playlist order.
    public internal(set) var rungs: [RungMeasurement] = []
    /// One entry per I-frame playlist checked, in master playlist order.
    public internal(set) var iFrameRungs: [IFrameMeasurement] = []
    /// One entry per audio rendition (`#EXT-X-MEDIA:TYPE=AUDIO`) playlist checked, in master playlist order.
    public internal(set) var audioRenditions: [RungMeasurement] = []
}

/// What was measured on one media playlist and its segments.
public struct RungMeasurement: Sendable, Encodable {
    /// The playlist, relative to the title's folder.
    public let playlist: String
    /// TARGETDURATION, when it is an integer.
    public let targetDuration: Int?
    /// The segments in order.
    public internal(set) var segments: [SegmentMeasurement] = []
    /// The RFC 8216 peak bit rate (see ``Bandwidth/peak(segments:targetDuration:)``).
    public internal(set) var peakBandwidth = 0.0
    /// Total bytes × 8 over the sum of EXTINF.
    public internal(set) var averageBandwidth = 0.0
    /// The SPS of the first segment.
    public internal(set) var sps: SequenceParameterSet?
    /// The first ADTS header, when the rung has audio.
    public internal(set) var audio: ADTSHeader?
    /// The encoded audio channel count, when the rung has audio.
    public internal(set) var audioChannels: Int?
    /// The codec strings derived from the bitstream, such as `["avc1.640028", "mp4a.40.2"]`.
    public internal(set) var codecs: [String] = []
    /// Frames per second from the PTS of every picture, or the VUI when there is one picture.
    public internal(set) var frameRate: Double?
    /// The PTS of every IDR picture.
    public internal(set) var idrTimes: [Double] = []
    /// From the first picture's PTS to the end of the last picture.
    public internal(set) var videoDuration: Double?
    /// The sum of EXTINF.
    public internal(set) var playlistDuration = 0.0
}

/// What was measured on one segment.
public struct SegmentMeasurement: Sendable, Encodable {
    /// The segment file, relative to the title's folder.
    public let file: String
    /// Bytes of the segment (its byte range when it has one).
    public let bytes: Int
    /// The EXTINF duration.
    public let duration: Double
    /// PTS of the first picture shown.
    public internal(set) var videoStart: Double?
    /// PTS just after the last picture shown ends.
    public internal(set) var videoEnd: Double?
    /// PTS of the first audio frame.
    public internal(set) var audioStart: Double?
    /// PTS just after the last audio frame ends.
    public internal(set) var audioEnd: Double?
    /// PTS of the IDR pictures in the segment.
    public internal(set) var idrTimes: [Double] = []
}

/// What was measured on one I-frame playlist.
public struct IFrameMeasurement: Sendable, Encodable {
    /// The playlist, relative to the title's folder.
    public let playlist: String
    /// The RFC 8216 peak bit rate of the byte ranges over their EXTINF durations.
    public internal(set) var peakBandwidth = 0.0
    /// The PTS of the IDR picture in each byte range, nil where the range holds none.
    public internal(set) var idrTimes: [Double?] = []
}
