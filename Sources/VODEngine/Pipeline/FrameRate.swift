import CFFmpeg
import VODFFmpeg

/// The constant output frame rate of a title and the keyframe schedule shared by every rung.
struct FrameRate: Sendable {
    /// Frames per second as a rational, such as 30000/1001.
    let rate: AVRational
    /// Seconds between IDR frames.
    let keyframeInterval: Double

    /// The source's rate divided by the smallest whole number that brings it to 60 fps or less (120 → 60,
    /// 144 → 48), so output frames are a regular subset of the source's; 30 fps when the source does not say.
    init(source: AVRational, keyframeInterval: Double) {
        var rate = source
        if rate.num <= 0 || rate.den <= 0 || Double(rate.num) / Double(rate.den) < 1 {
            rate = AVRational(num: 30, den: 1)
        }
        let divisor = (Double(rate.num) / Double(rate.den) / 60).rounded(.up)
        if divisor > 1 { rate = av_mul_q(rate, AVRational(num: 1, den: Int32(min(divisor, Double(1 << 20))))) }
        var reduced = AVRational()
        av_reduce(&reduced.num, &reduced.den, Int64(rate.num), Int64(rate.den), 1 << 30)
        self.rate = reduced
        self.keyframeInterval = keyframeInterval
    }

    var framesPerSecond: Double { Double(rate.num) / Double(rate.den) }

    /// The encoder time base: one tick per frame.
    var timeBase: AVRational { AVRational(num: rate.den, den: rate.num) }

    /// The time of frame `index` in seconds.
    func time(ofFrame index: Int64) -> Double { Double(index) * Double(rate.den) / Double(rate.num) }

    /// Whether frame `index` starts a GOP: the first frame at or after each multiple of the keyframe interval.
    func isKeyframe(_ index: Int64) -> Bool {
        index == 0 || interval(of: index) != interval(of: index - 1)
    }

    /// Frames in one keyframe interval, rounded up.
    var framesPerKeyframeInterval: Int32 { Int32((keyframeInterval * framesPerSecond).rounded(.up)) }

    private func interval(of index: Int64) -> Int64 {
        let ticks = Int64((keyframeInterval * 1000).rounded())
        return index * Int64(rate.den) * 1000 / (Int64(rate.num) * ticks)
    }
}

extension FrameRate {
    /// The output frame rate and keyframe schedule of a title read from `input`.
    init(of input: InputFile, options: TranscodeOptions) {
        let sourceRate = MediaProber.pictureStream(of: input).map(MediaProber.frameRate) ?? AVRational(num: 0, den: 1)
        self.init(source: sourceRate, keyframeInterval: options.keyframeInterval)
    }
}
