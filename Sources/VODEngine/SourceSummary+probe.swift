extension SourceSummary {
    /// The summary of a probe, or nil for a file without video.
    public init?(_ probe: MediaProbe) {
        guard let video = probe.video else { return nil }
        self.init(
            container: probe.container, videoCodec: video.codec, profile: video.profile, bitDepth: video.bitDepth ?? 8,
            width: video.width, height: video.height,
            displayAspectRatio: Self.ratio(video.displayWidth, video.displayHeight),
            frameRate: (video.frameRate * 1000).rounded() / 1000, hdr: video.hdr, interlaced: video.interlaced ?? false,
            rotation: video.rotation, duration: probe.duration
        )
    }

    /// `width:height` in lowest terms, such as `16:9`.
    private static func ratio(_ width: Int, _ height: Int) -> String {
        var (a, b) = (width, height)
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = max(a, 1)
        return "\(width / divisor):\(height / divisor)"
    }
}
