/// What came in, in the terms a person uploading a file would use: the `source` object of `vod probe` and of
/// the media JSON.
public struct SourceSummary: Sendable, Equatable, Codable {
    /// The demuxer that read the file, such as `mov,mp4,m4a,3gp,3g2,mj2` or `mpegts`.
    public var container: String
    /// The video codec, such as `hevc`.
    public var videoCodec: String
    /// The codec profile, such as `Main 10`, when the codec has one.
    public var profile: String?
    /// Bits per sample of the decoded picture: 8, 10 or 12.
    public var bitDepth: Int
    /// The coded width in pixels.
    public var width: Int
    /// The coded height in pixels.
    public var height: Int
    /// The shape shown to the viewer, such as `16:9`: pixel aspect and rotation applied.
    public var displayAspectRatio: String
    /// Frames per second.
    public var frameRate: Double
    /// `pq`, `hlg` or `dolby-vision` for HDR sources; nil for SDR.
    public var hdr: DynamicRange?
    /// Whether the pictures are interlaced fields.
    public var interlaced: Bool
    /// The rotation applied for display, in degrees clockwise.
    public var rotation: Int
    /// The duration in seconds, when the container knows it.
    public var duration: Double?

    /// The keys of the `source` object.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case container, profile, width, height, hdr, interlaced, rotation, duration
        case videoCodec = "video_codec"
        case bitDepth = "bit_depth"
        case displayAspectRatio = "display_aspect_ratio"
        case frameRate = "frame_rate"
    }

    /// A summary of these values; `vod` makes them from its probe of the file.
    public init(
        container: String, videoCodec: String, profile: String?, bitDepth: Int, width: Int, height: Int,
        displayAspectRatio: String, frameRate: Double, hdr: DynamicRange?, interlaced: Bool, rotation: Int, duration: Double?
    ) {
        self.container = container
        self.videoCodec = videoCodec
        self.profile = profile
        self.bitDepth = bitDepth
        self.width = width
        self.height = height
        self.displayAspectRatio = displayAspectRatio
        self.frameRate = frameRate
        self.hdr = hdr
        self.interlaced = interlaced
        self.rotation = rotation
        self.duration = duration
    }

    /// Writes `hdr` and `duration` as JSON null when absent, so clients always find every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.container, forKey: .container)
        try container.encode(videoCodec, forKey: .videoCodec)
        try container.encode(profile, forKey: .profile)
        try container.encode(bitDepth, forKey: .bitDepth)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(displayAspectRatio, forKey: .displayAspectRatio)
        try container.encode(frameRate, forKey: .frameRate)
        try container.encode(hdr, forKey: .hdr)
        try container.encode(interlaced, forKey: .interlaced)
        try container.encode(rotation, forKey: .rotation)
        try container.encode(duration, forKey: .duration)
    }
}
