import VODFFmpeg

/// Turns decoded frames with arbitrary timestamps into a constant-rate sequence, duplicating or dropping
/// frames as needed (like FFmpeg's `fps` filter), so variable-rate sources get regular keyframes.
///
/// Closed captions (`Frame.closedCaptions`) go out once, as they came: a repeated picture carries none, and the
/// captions of a dropped picture go out with the next picture emitted.
struct FrameRateConverter {
    let frameRate: FrameRate
    private(set) var nextIndex: Int64 = 0
    private var pending: Frame?
    private var pendingEnd: Double = 0
    /// Whether the pending frame has been emitted at least once.
    private var pendingEmitted = false
    /// The captions of dropped frames, for the next frame emitted.
    private var carriedCaptions = CaptionCarry()
    /// Whether output starts with the first frame's own slot instead of frame 0: a chunk of a split title,
    /// decoded from a seek, whose earlier slots belong to the chunk before.
    var startsAtFirstPicture = false

    init(frameRate: FrameRate) {
        self.frameRate = frameRate
    }

    /// Takes a decoded frame shown from `time` for `duration` seconds and emits the output frames before it.
    mutating func push(_ frame: Frame, time: Double, duration: Double, emit: (Frame, Int64) throws -> Void) throws {
        if startsAtFirstPicture, pending == nil {
            // The first slot this frame would fill after the frames before it: k + 0.5 > time × rate.
            nextIndex = max(nextIndex, Int64((time * frameRate.framesPerSecond - 0.5).rounded(.down)) + 1)
        }
        try emitPending(before: time, emit: emit)
        if let pending, !pendingEmitted { carriedCaptions.carry(pending.closedCaptions) }
        pending = frame
        pendingEmitted = false
        pendingEnd = max(time + duration, pendingEnd)
    }

    /// Emits the last frame for as long as it is shown, and at least until `end` seconds.
    mutating func finish(until end: Double = 0, emit: (Frame, Int64) throws -> Void) throws {
        try emitPending(before: max(pendingEnd, end), emit: emit)
        pending = nil
    }

    /// The duration of what has been emitted, in seconds.
    var emittedDuration: Double { frameRate.time(ofFrame: nextIndex) }

    private mutating func emitPending(before time: Double, emit: (Frame, Int64) throws -> Void) throws {
        guard let pending else { return }
        while Double(nextIndex) + 0.5 <= time * frameRate.framesPerSecond {
            let copy = try pending.reference()
            copy.pts = nextIndex
            try copy.setClosedCaptions(pendingEmitted ? nil : carriedCaptions.take(with: pending.closedCaptions))
            pendingEmitted = true
            try emit(copy, nextIndex)
            nextIndex += 1
        }
    }
}
