/// Where the video rungs cut their segments: at the first IDR at least the target duration (less half a
/// frame) after the segment's start, as `HLSSegmenter` cuts. Audio renditions cut at the same times, so segment
/// k covers the same time in every rendition.
struct SegmentSchedule {
    private let frameRate: FrameRate
    private let targetDuration: Double
    private var index: Int64 = 0
    private var start = 0.0

    init(frameRate: FrameRate, targetDuration: Double) {
        self.frameRate = frameRate
        self.targetDuration = targetDuration
    }

    /// The frame that starts the segment `nextBoundary` last returned the start of.
    var boundaryFrame: Int64 { index }

    /// The time the current segment ends and the next one starts.
    mutating func nextBoundary() -> Double {
        let halfFrame = 0.5 / frameRate.framesPerSecond
        repeat { index += 1 } while !frameRate.isKeyframe(index) || frameRate.time(ofFrame: index) - start < targetDuration - halfFrame
        start = frameRate.time(ofFrame: index)
        return start
    }
}
