import Foundation

/// One publication of a title that grows as it is transcoded (`Transcoder.transcode(…, onPublish:)`).
public struct Publication: Sendable, Equatable {
    /// How many segments the playlists of the first rungs (and the audio renditions) list.
    public var segments: Int
    /// Whether this publication makes the title playable: the first whose pace stays ahead of a player that
    /// starts now (`PublicationPace`). True once per title.
    public var makesPlayable: Bool
    /// The rungs the master lists, in ladder order: those whose publication stays ahead of a player starting
    /// now, or is complete (`LivePublisher`); empty when the publisher does not say.
    public var rungs: [String]

    public init(segments: Int, makesPlayable: Bool, rungs: [String] = []) {
        self.segments = segments
        self.makesPlayable = makesPlayable
        self.rungs = rungs
    }
}

/// When a growing title may say it is playable: only once its publication can stay ahead of a player that
/// starts at that moment and plays at 1×, so that the player never waits for a segment.
///
/// The rule: the pace is how fast the published media time has grown since the first publication (so that the
/// work's start-up, and a first segment encoded fast, do not count), discounted by `safety`. Each segment k still
/// to come, covering [a, b), is listed about when the work reaches b, `(b − f) / pace` seconds from now, where f
/// is the media time published; a player starting now needs it `a` seconds from now, less `latency` for the
/// publication to reach it. The title is playable once that holds for every segment to come, with at least two
/// publications to measure a pace on (and always once every segment is out). Where the machine cannot keep up
/// with real time, such as a 4k ladder on 2 cores, this waits until the rest of the title can be encoded while
/// its start plays.
public struct PublicationPace: Sendable {
    /// The planned boundaries of the title's segments: segment k covers [boundaries[k], boundaries[k + 1]).
    let boundaries: [Double]
    /// The media time and the moment of the first publication.
    private var first: (time: Double, at: ContinuousClock.Instant)?
    private var claimed = false

    /// The share of the measured pace relied upon.
    static let safety = 0.9
    /// Seconds from a segment's close to a player seeing it listed.
    static let latency = 0.5

    /// A title lasting `duration` seconds, cut on `durations` at `frameRate`'s keyframes.
    init(duration: Double, frameRate: FrameRate, durations: SegmentDurations) {
        var schedule = SegmentSchedule(frameRate: frameRate, durations: durations)
        var boundaries = [0.0]
        while let last = boundaries.last, last < duration {
            boundaries.append(min(schedule.nextBoundary(), duration))
        }
        self.init(boundaries: boundaries)
    }

    /// A title whose segment k covers [boundaries[k], boundaries[k + 1]).
    init(boundaries: [Double]) {
        self.boundaries = boundaries
    }

    /// Whether a player starting `now` would never wait, with `published` segments listed.
    func staysAhead(published: Int, now: ContinuousClock.Instant = .now) -> Bool {
        let segments = boundaries.count - 1
        guard published < segments else { return true }
        guard published > 0, let first else { return false }
        let frontier = boundaries[published]
        let elapsed = (now - first.at) / .seconds(1)
        guard frontier > first.time, elapsed > 0 else { return false }
        let pace = (frontier - first.time) / elapsed * Self.safety
        return (published..<segments).allSatisfy { index in
            (boundaries[index + 1] - frontier) / pace <= boundaries[index] - Self.latency
        }
    }

    /// The publication of `segments` segments at `now`, playable if it is the first that stays ahead.
    mutating func publication(of segments: Int, now: ContinuousClock.Instant = .now) -> Publication {
        if first == nil, segments > 0 { first = (boundaries[min(segments, boundaries.count - 1)], now) }
        let makesPlayable = !claimed && staysAhead(published: segments, now: now)
        if makesPlayable { claimed = true }
        return Publication(segments: segments, makesPlayable: makesPlayable)
    }
}
