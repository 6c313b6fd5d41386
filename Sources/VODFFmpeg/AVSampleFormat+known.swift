import CFFmpeg

/// The sample formats the pipeline names.
extension AVSampleFormat {
    /// 32-bit float, one plane per channel: what the AAC and AC-3 encoders take.
    public static let floatPlanar = AV_SAMPLE_FMT_FLTP
}
