import VODFFmpeg

/// The constant output frame rate of a title and the keyframe schedule shared by every rung.
struct FrameRate: Sendable {
    /// Frames per second as a rational, such as 30000/1001.
    let rate: Rational
    /// Seconds between IDR frames.
    let keyframeInterval: Double

    /// The source's rate divided by the smallest whole number that brings it to 60 fps or less (120 → 60,
    /// 144 → 48), so output frames are a regular subset of the source's; 30 fps when the source does not say.
    /// A rate under `lowRate` (a timelapse, a screen capture, a slide show) is raised to the next whole number of
    /// frames per keyframe interval, at least `minimumRate` (0.5 and 1 → 2, 1.63 → 2, 3 → 3 fps with a 2 s
    /// interval), its pictures held where needed: so the keyframe grid is exact, and segments end on it rather
    /// than up to a whole (long) frame after it.
    init(source: Rational, keyframeInterval: Double) {
        var rate = source
        if !rate.isPositive { rate = Rational(30, 1) }
        if rate.value < Self.lowRate {
            let least = (Self.minimumRate * keyframeInterval).rounded(.up)
            let frames = max((rate.value * keyframeInterval - 1e-9).rounded(.up), least)
            let milliseconds = Int32((keyframeInterval * 1000).rounded())
            rate = Rational(Int32(frames) * 1000, milliseconds)
        }
        let divisor = (rate.value / 60).rounded(.up)
        if divisor > 1 { rate = rate.multiplied(by: Rational(1, Int32(min(divisor, Double(1 << 20))))) }
        self.rate = rate.reduced()
        self.keyframeInterval = keyframeInterval
    }

    /// Below this many frames a second, the output rate is raised onto the keyframe grid.
    static let lowRate = 5.0
    /// The lowest output rate. libx264 learns its B-frame decode delay from its third picture: an encoder given no
    /// more than two (a 2 s first segment, fast start or first chunk of a split title, at 1 fps) writes decode
    /// times equal to presentation times, and those of the next encoder, delayed by two frames, go back across
    /// the join (in one muxer, "write packet: Invalid argument"). At 2 fps every encoder gets four at least.
    static let minimumRate = 2.0

    var framesPerSecond: Double { rate.value }

    /// The encoder time base: one tick per frame.
    var timeBase: Rational { rate.inverse }

    /// The time of frame `index` in seconds.
    func time(ofFrame index: Int64) -> Double { timeBase.seconds(index) }

    /// Whether frame `index` starts a GOP: the first frame at or after each multiple of the keyframe interval.
    func isKeyframe(_ index: Int64) -> Bool {
        index == 0 || interval(of: index) != interval(of: index - 1)
    }

    /// How many keyframes come before frame `index`, itself a keyframe: the number of its keyframe interval.
    func keyframesBefore(frame index: Int64) -> Int64 { interval(of: index) }

    /// Frames in one keyframe interval, rounded up.
    var framesPerKeyframeInterval: Int32 { Int32((keyframeInterval * framesPerSecond).rounded(.up)) }

    private func interval(of index: Int64) -> Int64 {
        let ticks = Int64((keyframeInterval * 1000).rounded())
        return index * Int64(rate.denominator) * 1000 / (Int64(rate.numerator) * ticks)
    }
}

extension FrameRate {
    /// The output frame rate and keyframe schedule of a title read from `input`.
    init(of input: InputFile, options: TranscodeOptions) {
        self.init(source: MediaProber.pictureStream(of: input).map { MediaProber.frameRate(of: $0, in: input) } ?? Rational(0, 1),
                  keyframeInterval: options.keyframeInterval)
    }
}
