import Foundation

/// One publication of a title that grows as it is transcoded (`Transcoder.transcode(…, onPublish:)`).
public struct Publication: Sendable, Equatable {
    /// How many segments every playlist lists.
    public var segments: Int
    /// Whether this publication makes the title playable: the first whose pace stays ahead of a player that
    /// starts now (`PublicationPace`). True once per title.
    public var makesPlayable: Bool

    public init(segments: Int, makesPlayable: Bool) {
        self.segments = segments
        self.makesPlayable = makesPlayable
    }
}

/// When a growing title may say it is playable: only once its publication can stay ahead of a player that
/// starts at that moment and plays at 1×, so that the player never waits for a segment.
///
/// The rule: with the segments published so far reaching media time `f` after `t` seconds of work, the pace
/// is `f / t` media seconds per second (from the start of the work, so the startup counts against it, and
/// discounted by `safety`). Each segment k still to come, covering [a, b), is listed about when the work
/// reaches b, `(b − f) / pace` seconds from now; a player starting now needs it `a` seconds from now, less
/// `latency` for the publication to reach it. The title is playable once that holds for every segment to come
/// (it always does once every segment is out). Where the machine cannot keep up with real time, such as a 4k
/// ladder on 2 cores, this waits until the rest of the title can be encoded while the start plays.
public struct PublicationPace: Sendable {
    /// The planned boundaries of the title's segments: segment k covers [boundaries[k], boundaries[k + 1]).
    let boundaries: [Double]
    private let started: ContinuousClock.Instant
    private var claimed = false

    /// The share of the measured pace relied upon.
    static let safety = 0.85
    /// Seconds from a segment's close to a player seeing it listed.
    static let latency = 0.5

    /// A title lasting `duration` seconds, cut on `durations` at `frameRate`'s keyframes, whose work started at
    /// `started`.
    init(duration: Double, frameRate: FrameRate, durations: SegmentDurations, started: ContinuousClock.Instant = .now) {
        var schedule = SegmentSchedule(frameRate: frameRate, durations: durations)
        var boundaries = [0.0]
        while let last = boundaries.last, last < duration {
            boundaries.append(min(schedule.nextBoundary(), duration))
        }
        self.init(boundaries: boundaries, started: started)
    }

    /// A title whose segment k covers [boundaries[k], boundaries[k + 1]).
    init(boundaries: [Double], started: ContinuousClock.Instant) {
        self.boundaries = boundaries
        self.started = started
    }

    /// Whether a player starting `now` would never wait, with `published` segments listed.
    func staysAhead(published: Int, now: ContinuousClock.Instant = .now) -> Bool {
        let segments = boundaries.count - 1
        guard published > 0 else { return false }
        guard published < segments else { return true }
        let frontier = boundaries[published]
        let elapsed = max((now - started) / .seconds(1), 0.001)
        let pace = frontier / elapsed * Self.safety
        return (published..<segments).allSatisfy { index in
            (boundaries[index + 1] - frontier) / pace <= boundaries[index] - Self.latency
        }
    }

    /// The publication of `segments` segments at `now`, playable if it is the first that stays ahead.
    mutating func publication(of segments: Int, now: ContinuousClock.Instant = .now) -> Publication {
        let makesPlayable = !claimed && staysAhead(published: segments, now: now)
        if makesPlayable { claimed = true }
        return Publication(segments: segments, makesPlayable: makesPlayable)
    }
}
