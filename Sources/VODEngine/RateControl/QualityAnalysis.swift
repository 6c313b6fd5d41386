import Foundation
import VODFFmpeg

/// What `QualityAnalysis` chose for a title, and what it measured to choose it.
public struct QualityChoice: Sendable, Codable, Equatable {
    /// One trial: the samples encoded at `crf`, and their mean SSIM against the scaled source.
    public struct Trial: Sendable, Codable, Equatable {
        public var crf: Double
        public var ssim: Double
    }

    /// The CRF every rung of the title is encoded at.
    public var crf: Double
    /// The trials, in the order they ran; empty when the title had no picture to sample.
    public var trials: [Trial]
    /// The wall time of the analysis, in seconds.
    public var seconds: Double
}

/// Chooses a title's constant rate factor by measurement.
///
/// A few short samples of the source (about 4 % of its pictures, at most 2 s, from up to three places) are
/// scaled to the smallest rung and encoded as that rung would be (its preset, capped by VBV at its bitrate) at
/// a trial CRF, decoded and scored with SSIM (libavfilter's `ssim`) against the scaled source. The first trial is
/// `firstTrial`; the second is the end of `range` on the side the first points to. The title gets the CRF at
/// which the line through the two trials reaches `targetSSIM`: the fewest bits that keep that similarity, within
/// `range`. A detailed picture thus gets a low CRF, bounded by its rung's cap, and a static one a high CRF.
struct QualityAnalysis: Sendable {
    /// The CRFs a title may get: from a picture that needs every bit to one that needs almost none.
    static let range = 18.0...32.0
    /// The CRF tried first.
    static let firstTrial = 25.0
    /// The SSIM (all planes) the samples must keep at the smallest rung.
    static let targetSSIM = 0.98
    /// The share of the title's pictures sampled, and the bounds on their number, in frames and seconds.
    static let sampleShare = 0.04
    static let minimumSamples: Int64 = 12
    static let maximumSampleSeconds = 2.0
    /// How full the VBV buffer of a trial starts: x264's default, as in the middle of a title, where the buffer
    /// has had time to fill.
    static let sampleBufferFill = 0.9

    let input: String
    let options: TranscodeOptions
    let cancellation: CancellationFlag

    /// The CRF for a title of about `duration` seconds whose smallest rung is `rung`, its pictures turned by
    /// `rotation` degrees.
    func choose(rung: PlannedRung, rotation: Int, duration: Double) throws -> QualityChoice {
        let started = ContinuousClock.now
        let samples = try self.samples(rung: rung, rotation: rotation, duration: duration)
        guard !samples.pictures.isEmpty else {
            return QualityChoice(crf: RateControl.defaultCRF, trials: [], seconds: Self.seconds(since: started))
        }
        let first = QualityChoice.Trial(crf: Self.firstTrial,
                                        ssim: try score(samples, rung: rung.at(crf: Self.firstTrial)))
        let secondCRF = first.ssim >= Self.targetSSIM ? Self.range.upperBound : Self.range.lowerBound
        let second = QualityChoice.Trial(crf: secondCRF, ssim: try score(samples, rung: rung.at(crf: secondCRF)))
        return QualityChoice(crf: Self.crf(between: first, and: second), trials: [first, second],
                             seconds: Self.seconds(since: started))
    }

    /// The CRF at which the line through two trials reaches `targetSSIM`, to a tenth: the higher CRF when both
    /// reach it, the lower when neither does.
    static func crf(between first: QualityChoice.Trial, and second: QualityChoice.Trial) -> Double {
        let (low, high) = first.crf < second.crf ? (first, second) : (second, first)
        if high.ssim >= targetSSIM { return high.crf }
        if low.ssim < targetSSIM { return low.crf }
        let crf = low.crf + (low.ssim - targetSSIM) * (high.crf - low.crf) / (low.ssim - high.ssim)
        return (crf * 10).rounded() / 10
    }

    /// The frames sampled from a title of `total` frames: about `sampleShare` of them, in three windows spread
    /// over the title when there are enough for three, else one in its middle.
    static func windows(total: Int64, frameRate: FrameRate) -> [Range<Int64>] {
        let most = Int64(maximumSampleSeconds * frameRate.framesPerSecond)
        let wanted = min(max(Int64(Double(total) * sampleShare), minimumSamples), most)
        guard total > wanted else { return total > 0 ? [0..<total] : [] }
        let count: Int64 = wanted >= 3 * minimumSamples ? 3 : 1
        let length = wanted / count
        return (0..<count).map { window in
            let start = max(0, total * (2 * window + 1) / (2 * count) - length / 2)
            return start..<(start + length)
        }
    }

    /// The sampled pictures, scaled to `rung` and upright, numbered from 0, and their frame rate.
    private func samples(rung: PlannedRung, rotation: Int, duration: Double) throws -> (pictures: [Frame], frameRate: FrameRate) {
        let file = try MediaProber.open(path: input, cancellation: cancellation)
        let frameRate = FrameRate(of: file, options: options)
        let timelineStart = try SourceStage(input: file, options: options).findTimelineStart()
        let length = duration - timelineStart + (file.startTime ?? 0)
        let total = Int64(length * frameRate.framesPerSecond)
        var scaler = RungScaler(rung: rung, rotation: rotation)
        var pictures: [Frame] = []
        var starts: Set<Int64> = []
        /// Appends the pictures of `window`, decoded from a seek `preroll` seconds before it; returns how many.
        func decode(_ window: Range<Int64>, preroll: Double) throws -> Int {
            let before = pictures.count
            let spec = ChunkSpec(index: 0, startFrame: window.lowerBound, endFrame: window.upperBound, firstSegment: 0,
                                 timelineStart: timelineStart, rungs: [rung])
            let source = try SourceStage(input: try MediaProber.open(path: input, cancellation: cancellation),
                                         options: options, window: .chunk(spec), preroll: preroll)
            _ = try source.run(video: { frame, _ in
                // A reference of its own, so that the scaler does not take the picture back for the next one.
                let picture = try scaler.upright(try scaler.scale(frame)).reference()
                picture.pts = Int64(pictures.count)
                pictures.append(picture)
            }, audio: { _, _ in }, progress: { _ in })
            return pictures.count - before
        }
        for planned in Self.windows(total: total, frameRate: frameRate) {
            // Half a frame after the keyframe, so that a seek lands on it whatever the rounding of its time. A
            // container whose seek is not exact (MPEG-TS) may land past it and find no picture in the window:
            // the planned window is then decoded as a chunk is, from a second before it.
            if let stream = MediaProber.pictureStream(of: file),
               let start = try Self.keyframe(in: file, stream: stream, from: planned, before: total,
                                             timelineStart: timelineStart, frameRate: frameRate),
               starts.insert(start).inserted,
               try decode(start..<(start + Int64(planned.count)), preroll: -0.5 / frameRate.framesPerSecond) > 0 {
                continue
            }
            _ = try decode(planned, preroll: SourceStage.chunkPreroll)
        }
        return (pictures, frameRate)
    }

    /// The first frame of the title at a source keyframe at or after `window`'s start from which the whole window
    /// fits before frame `total`, found by reading packets from a seek, none decoded: a window that starts there
    /// decodes no picture before its own, where a window in the middle of a long group of pictures (x264's
    /// default is 250 frames) would decode the group's start first. Nil when there is none.
    static func keyframe(in file: InputFile, stream: MediaStream, from window: Range<Int64>, before total: Int64,
                         timelineStart: Double, frameRate: FrameRate) throws -> Int64? {
        let startTime = timelineStart + frameRate.time(ofFrame: window.lowerBound)
        try file.seek(toSeconds: startTime)
        let packet = try Packet()
        while try file.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == stream.index, packet.hasPTS else { continue }
            let time = stream.timeBase.seconds(packet.pts)
            let frame = Int64(((time - timelineStart) * frameRate.framesPerSecond).rounded())
            guard frame + Int64(window.count) <= total else { return nil }
            if packet.isKeyframe, time >= startTime - 0.5 / frameRate.framesPerSecond { return frame }
        }
        return nil
    }

    /// The mean SSIM of `samples` encoded as `rung` (at its CRF), decoded, against themselves.
    private func score(_ samples: (pictures: [Frame], frameRate: FrameRate), rung: PlannedRung) throws -> Double {
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let encoder = try RungEncoder.makeEncoder(rung: rung, preset: options.preset, threads: threads, frameRate: samples.frameRate,
                                                  format: options.segmentFormat.carrying(rung.codec), bufferFill: Self.sampleBufferFill)
        let decoder = try encoder.decoderForOutput()
        let meter = try SSIMMeter(format: PictureFormat(of: samples.pictures[0]), timeBase: samples.frameRate.timeBase)
        let packet = try Packet()
        let decoded = try Frame()
        var scored = 0
        let compare = {
            while try decoder.receive(into: decoded) {
                decoded.pts = samples.pictures[scored].pts
                try meter.add(decoded, original: samples.pictures[scored])
                decoded.unreference()
                scored += 1
            }
        }
        let drain = {
            while try encoder.receive(into: packet) {
                try decoder.send(packet)
                packet.unreference()
                try compare()
            }
        }
        for picture in samples.pictures {
            try cancellation.check("analyse quality")
            picture.forcesKeyframe = picture.pts == 0
            try encoder.send(picture)
            try drain()
        }
        try encoder.send(nil as Frame?)
        try drain()
        try decoder.send(nil as Packet?)
        try compare()
        let scores = try meter.finish()
        guard !scores.isEmpty else { throw MediaError.invalid("the quality analysis scored no picture") }
        return scores.reduce(0, +) / Double(scores.count)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
