/// What FFmpeg may read and allocate while it opens and decodes a file that is hostile until probed.
///
/// `InputFile` sets the demuxer's bounds on every open (`probesize`, `analyzeduration`, `max_streams`) and
/// `max_pixels` on the decoders that stream analysis opens; every decoder of one of its streams gets the same
/// `max_pixels`, so no picture larger than the limit is ever allocated, whatever a header says.
public struct DecodeLimits: Sendable, Hashable {
    /// The most pixels in one picture a decoder allocates (`max_pixels`); a larger picture is not decoded and the
    /// decoder notes its size (`Codec.refusedPictureSize`).
    public var maximumPixels: Int
    /// The most bytes read while looking for the streams and their parameters (`probesize`).
    public var probeBytes: Int
    /// The most media time read while looking for the streams, in microseconds (`analyzeduration`).
    public var analyzeMicroseconds: Int
    /// The most streams a file may declare (`max_streams`); a file with more fails to open.
    public var maximumStreams: Int

    /// Limits with the given bounds.
    public init(maximumPixels: Int, probeBytes: Int, analyzeMicroseconds: Int, maximumStreams: Int) {
        self.maximumPixels = maximumPixels
        self.probeBytes = probeBytes
        self.analyzeMicroseconds = analyzeMicroseconds
        self.maximumStreams = maximumStreams
    }

    /// The demuxer's options that apply the limits when opening a file.
    var demuxerOptions: [String: String] {
        ["probesize": "\(probeBytes)", "analyzeduration": "\(analyzeMicroseconds)", "max_streams": "\(maximumStreams)"]
    }

    /// The decoder options that apply the limits.
    var decoderOptions: [String: String] { ["max_pixels": "\(maximumPixels)"] }
}
