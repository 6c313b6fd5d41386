/// The target duration of each segment: the first `shortCount` short, so that a title is out, says it is
/// playable and a player starts in seconds, every other one the playlist's target.
struct SegmentDurations: Sendable, Equatable, Codable {
    let first: Double
    let target: Double
    /// How many segments at the title's start last `first`.
    var shortCount = 1

    /// The target duration of segment `index` (counted from 0 across the whole title).
    func target(ofSegment index: Int) -> Double {
        index < shortCount ? first : target
    }
}

/// Where the video rungs cut their segments: at the first IDR at least the segment's target duration (less half
/// a frame) after the segment's start, as `HLSSegmenter` cuts. Audio renditions cut at the same times, so segment
/// k covers the same time in every rendition.
struct SegmentSchedule {
    private let frameRate: FrameRate
    private let durations: SegmentDurations
    private var index: Int64 = 0
    private var segment = 0
    private var start = 0.0

    init(frameRate: FrameRate, durations: SegmentDurations) {
        self.frameRate = frameRate
        self.durations = durations
    }

    /// The frame that starts the segment `nextBoundary` last returned the start of.
    var boundaryFrame: Int64 { index }

    /// The time the current segment ends and the next one starts.
    mutating func nextBoundary() -> Double {
        let halfFrame = 0.5 / frameRate.framesPerSecond
        let target = durations.target(ofSegment: segment)
        repeat { index += 1 } while !frameRate.isKeyframe(index) || frameRate.time(ofFrame: index) - start < target - halfFrame
        start = frameRate.time(ofFrame: index)
        segment += 1
        return start
    }
}
