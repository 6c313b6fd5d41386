import VODFFmpeg

/// Brings one audio encoding to a target loudness before it is encoded, after its mix to the encoding's channels:
/// libavfilter's `loudnorm` in its single-pass dynamic mode, with a true-peak limiter, so the title can be published
/// while it encodes.
///
/// `loudnorm` looks 3 s ahead, so the audio it gives back lags the frames it takes by that much: a title with a
/// target never muxes its audio into the video rungs (`TranscodeJob`), whose segments are cut on the pictures.
final class LoudnessNormalizer {
    /// The true peak the limiter allows, in dBTP: 3 dB under the −1 dBTP ceiling, for what the AAC and AC-3
    /// encoders and the resampling back from `loudnorm`'s 192 kHz add (measured on full-band pink noise at
    /// −10 LUFS and 128 kb/s, with `aacOptions`: 1.8 dB at most in 80 draws).
    static let limiterPeak = -4.0
    /// The options of FFmpeg's AAC encoder for sound brought to a target: without perceptual noise substitution and
    /// intensity stereo, which on loud full-band noise put true peaks up to 4.4 dB over the limiter's (80 draws of
    /// pink noise at −10 LUFS, 128 kb/s; 1.8 dB at most without them).
    static let aacOptions = ["aac_pns": "0", "aac_is": "0"]
    /// The loudness range `loudnorm` aims at, in LU: its widest, so the gain follows the programme only slowly.
    static let loudnessRange = 20.0

    private let target: Double
    private let timeBase: Rational
    private var graph: AudioFilterGraph?
    private let output: Frame

    /// A normalizer to `target` LUFS for audio timed in `timeBase`.
    init(target: Double, timeBase: Rational) throws {
        self.target = target
        self.timeBase = timeBase
        output = try Frame()
    }

    /// Takes audio (nil at the end) and passes on every normalized frame, in the format it came in, with its time
    /// in seconds, when known.
    func push(_ frame: Frame?, emit: (Frame, Double?) throws -> Void) throws {
        if graph == nil, let frame {
            let description = "loudnorm=I=\(target):TP=\(Self.limiterPeak):LRA=\(Self.loudnessRange)"
            graph = try AudioFilterGraph(description: description, like: frame, timeBase: timeBase, keepsFormat: true)
        }
        guard let graph else { return }
        try graph.push(frame)
        while try graph.pull(into: output) {
            defer { output.unreference() }
            try emit(output, graph.time(of: output))
        }
    }
}
