import VODFFmpeg

/// The constant output frame rate of a title and the keyframe schedule shared by every rung.
struct FrameRate: Sendable {
    /// Frames per second as a rational, such as 30000/1001.
    let rate: Rational
    /// Seconds between IDR frames.
    let keyframeInterval: Double

    /// The source's rate divided by the smallest whole number that brings it to 60 fps or less (120 → 60,
    /// 144 → 48), so output frames are a regular subset of the source's; 30 fps when the source does not say.
    init(source: Rational, keyframeInterval: Double) {
        var rate = source
        if !rate.isPositive || rate.value < 1 { rate = Rational(30, 1) }
        let divisor = (rate.value / 60).rounded(.up)
        if divisor > 1 { rate = rate.multiplied(by: Rational(1, Int32(min(divisor, Double(1 << 20))))) }
        self.rate = rate.reduced()
        self.keyframeInterval = keyframeInterval
    }

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
        let sourceRate = MediaProber.pictureStream(of: input).map(MediaProber.frameRate) ?? Rational(0, 1)
        self.init(source: sourceRate, keyframeInterval: options.keyframeInterval)
    }
}
