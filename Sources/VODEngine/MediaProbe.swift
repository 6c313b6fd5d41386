/// What a media file holds, read by `MediaProber` without decoding it.
public struct MediaProbe: Sendable, Codable, Equatable {
    /// The demuxer that recognised the file, such as `mov,mp4,m4a,3gp,3g2,mj2`.
    public var container: String
    /// The duration in seconds, when the container knows it.
    public var duration: Double?
    /// The overall bit rate in bits per second, when known.
    public var bitRate: Int?
    /// The video stream that would be transcoded, if any.
    public var video: VideoStreamInfo?
    /// The audio stream that would be transcoded, if any.
    public var audio: AudioStreamInfo?
    /// Every stream in the file.
    public var streams: [StreamInfo]
    /// What came in, summarised for people; nil without video.
    public var source: SourceSummary?
    /// Every video, audio and subtitle track, and whether it becomes a rendition or why it is left out.
    public var tracks: [TrackListing]?
    /// The chapters the container marks (Matroska, MP4), in its order; empty when it has none, nil in probes
    /// stored before chapters were read.
    public var chapters: [Chapter]?
}

/// A stream of any type in a probed file.
public struct StreamInfo: Sendable, Codable, Equatable {
    public var index: Int
    /// `video`, `audio`, `subtitle`, `data` or `attachment`.
    public var type: String
    /// The codec name, such as `h264`.
    public var codec: String
}

/// The video stream of a probed file.
public struct VideoStreamInfo: Sendable, Codable, Equatable {
    public var index: Int
    public var codec: String
    /// The coded width in pixels, before rotation and sample aspect ratio.
    public var width: Int
    /// The coded height in pixels, before rotation and sample aspect ratio.
    public var height: Int
    /// The rotation to apply for display, in degrees clockwise: 0, 90, 180 or 270.
    public var rotation: Int
    /// The sample (pixel) aspect ratio as `numerator:denominator`; `1:1` for square pixels.
    public var sampleAspectRatio: String
    /// The average frame rate in frames per second.
    public var frameRate: Double
    /// The frame rate as FFmpeg's rational `numerator/denominator`.
    public var frameRateRational: String
    /// The pixel format, such as `yuv420p`.
    public var pixelFormat: String
    /// The width shown to the viewer: rotation and sample aspect ratio applied, vertical blanking cut.
    public var displayWidth: Int
    /// The height shown to the viewer: rotation and sample aspect ratio applied, vertical blanking cut.
    public var displayHeight: Int
    /// The codec profile, such as `High` or `Main 10`.
    public var profile: String?
    /// Bits per sample of the decoded picture.
    public var bitDepth: Int?
    /// `pq`, `hlg` or `dolby-vision`; nil for SDR.
    public var hdr: DynamicRange?
    /// Whether the container or codec says the pictures are interlaced.
    public var interlaced: Bool?
}

/// The audio stream of a probed file.
public struct AudioStreamInfo: Sendable, Codable, Equatable {
    public var index: Int
    public var codec: String
    public var sampleRate: Int
    public var channels: Int
    /// The channel layout, such as `stereo` or `5.1`.
    public var channelLayout: String
}
