import Foundation
import Synchronization
import VODFFmpeg

/// One run of the pipeline, on dedicated threads: this thread demuxes, decodes and encodes audio, and one
/// thread per rung scales and encodes video and writes its segments. Bounded queues join them.
final class TranscodeJob: @unchecked Sendable {
    private let input: String
    private let staging: URL
    private let options: TranscodeOptions
    private let cancellation: CancellationFlag
    private let progress: ProgressReporter
    private let failure = Mutex<(any Error)?>(nil)

    init(input: String, staging: URL, options: TranscodeOptions, cancellation: CancellationFlag,
         progress: @escaping @Sendable (TranscodeProgress) -> Void) {
        self.input = input
        self.staging = staging
        self.options = options
        self.cancellation = cancellation
        self.progress = ProgressReporter(report: progress)
    }

    /// Runs the pipeline to completion and writes every playlist into the staging folder.
    func run() throws -> (duration: Double, renditions: [Rendition], audio: [AlternateRendition]) {
        try InputPolicy.screen(path: input)
        let file = try MediaProber.open(path: input, cancellation: cancellation)
        let source = try SourceStage(input: file, options: options)
        guard let video = MediaProber.describe(file).video else { return try runAudioOnly(source) }
        let plan = try LadderPlanner.plan(ladder: options.ladder, displayWidth: video.displayWidth,
                                          displayHeight: video.displayHeight)
        // One stereo track is muxed into every rung; several tracks, or a surround one, become audio-only
        // renditions the player picks from.
        let audioWriters = source.audioEncodings.count < 2 ? [] : try makeAudioWriters(source)
        let encodings = source.audioEncodings
        let muxedAudio = audioWriters.isEmpty ? encodings.first : nil
        let rungs = try plan.map { rung in
            let directory = staging.appendingPathComponent(rung.name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try RungEncoder(rung: rung, threads: options.threads ?? Self.encoderThreads(for: rung, in: plan),
                                   rotation: video.rotation, frameRate: source.frameRate,
                                   audio: muxedAudio, options: options,
                                   directory: directory, cancellation: cancellation)
        }
        let queues = rungs.map { _ in BoundedQueue<RungInput>(capacity: 2, cancellation: cancellation) }
        let feeders = ScaleCascade.feeders(of: plan, sourceWidth: video.displayWidth, sourceHeight: video.displayHeight)
        let fromSource = queues.indices.filter { feeders[$0] == nil }.map { queues[$0] }
        let largest = RungPriority.largest(of: plan)
        let results = Mutex<[String: Rendition]>([:])
        let finished = DispatchGroup()
        for (index, (rung, queue)) in zip(rungs, queues).enumerated() {
            let followers = queues.indices.filter { feeders[$0] == index }.map { queues[$0] }
            finished.enter()
            let thread = Thread { [self] in
                defer { finished.leave() }
                if index != largest { RungPriority.yieldToLargestRung() }
                do {
                    let rendition = try rung.run(queue: queue, followers: followers)
                    results.withLock { $0[rendition.rung.name] = rendition }
                    progress.complete(rung: rendition.rung.name)
                } catch {
                    fail(error)
                }
            }
            thread.name = "vod.encode.\(rung.rung.name)"
            thread.stackSize = 8 << 20
            thread.start()
        }
        var duration = 0.0
        do {
            duration = try source.run(
                video: { frame, isKeyframe in
                    for queue in fromSource { try queue.push(.video(try frame.reference(), isKeyframe: isKeyframe)) }
                },
                audio: { track, packet in
                    if audioWriters.isEmpty {
                        for queue in fromSource { try queue.push(.audio(try packet.reference())) }
                    } else {
                        try audioWriters[track].add(packet)
                    }
                },
                progress: progress.advance
            )
        } catch {
            fail(error)
        }
        fromSource.forEach { $0.close() }
        finished.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        let renditions = results.withLock { collected in plan.compactMap { collected[$0.name] } }
        let audio = try audioRenditions(of: source, writers: audioWriters, duration: duration)
        let subtitles = try subtitleRenditions(of: source, videoSegments: renditions.first?.segments ?? [], duration: duration)
        try writePlaylists(renditions, audio: audio, subtitles: subtitles)
        return (duration, renditions, audio)
    }

    /// An audio-only title: every encoding of every track is a rendition of its own, cut on the same schedule as
    /// a video title's, and subtitles follow the first rendition's segments.
    private func runAudioOnly(_ source: SourceStage) throws -> (duration: Double, renditions: [Rendition], audio: [AlternateRendition]) {
        let writers = try makeAudioWriters(source)
        let duration = try source.run(video: { _, _ in }, audio: { try writers[$0].add($1) }, progress: progress.advance)
        let audio = try audioRenditions(of: source, writers: writers, duration: duration)
        let subtitles = try subtitleRenditions(of: source, videoSegments: audio.first?.segments ?? [], duration: duration)
        try writePlaylists([], audio: audio, subtitles: subtitles)
        return (duration, [], audio)
    }

    /// One audio-only rendition writer per encoding, each in its own folder.
    private func makeAudioWriters(_ source: SourceStage) throws -> [AudioRenditionWriter] {
        try source.audioEncodings.indices.map { index in
            let directory = staging.appendingPathComponent(AlternateRendition.folder(.audio, index))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return AudioRenditionWriter(directory: directory, encoding: source.audioEncodings[index], frameRate: source.frameRate,
                                        targetDuration: options.segmentDuration, cancellation: cancellation)
        }
    }

    /// x264 threads for one rung: its share of the ladder's pixels of x264's own default (1.5 threads per core).
    ///
    /// The rungs encode side by side, so giving each encoder the default would run three times too many frame
    /// threads: more memory for buffered frames, more synchronisation, and slightly worse motion search.
    static func encoderThreads(for rung: PlannedRung, in plan: [PlannedRung]) -> Int {
        let pixels = { (rung: PlannedRung) in Double(rung.width * rung.height) }
        let share = pixels(rung) / plan.map(pixels).reduce(0, +)
        return max(1, Int((share * Double(ProcessInfo.processInfo.activeProcessorCount) * 1.5).rounded()))
    }

    /// Records the first real failure and stops every other stage.
    private func fail(_ error: any Error) {
        failure.withLock { stored in
            let isCancellation = (error as? FFmpegError)?.isCancellation ?? false
            if stored == nil || (!isCancellation && ((stored as? FFmpegError)?.isCancellation ?? false)) {
                stored = error
            }
        }
        cancellation.cancel()
    }

    /// Closes the audio renditions and describes them: each track's AAC encoding in the `aac` group, its AC-3
    /// one in the `ac3` group, with the source's default track (else the first) the default of each group.
    private func audioRenditions(of source: SourceStage, writers: [AudioRenditionWriter], duration: Double) throws -> [AlternateRendition] {
        guard !writers.isEmpty else { return [] }
        let defaultTrack = source.audioTracks.first { $0.isDefault } ?? source.audioTracks[0]
        return try source.audioTracks.flatMap { track in
            try track.encoders.map { encoding in
                let index = source.audioEncodings.firstIndex { $0 === encoding }!
                let defaultEncoding = defaultTrack.encoders.first { $0.format == encoding.format }
                    ?? source.audioTracks.lazy.flatMap(\.encoders).first { $0.format == encoding.format }
                return AlternateRendition(kind: .audio, index: index, name: track.name, language: track.language,
                                          isDefault: encoding === defaultEncoding, channels: encoding.format.channels,
                                          codec: encoding.codecString ?? "mp4a.40.2", group: encoding.format.group,
                                          segments: try writers[index].finish(end: duration))
            }
        }
    }

    /// Writes each text subtitle track as WebVTT on the video's segment boundaries, its cues moved onto the
    /// title's timeline.
    private func subtitleRenditions(of source: SourceStage, videoSegments: [Segment], duration: Double) throws -> [AlternateRendition] {
        let defaultTrack = source.subtitleTracks.firstIndex { $0.isDefault }
        return try source.subtitleTracks.enumerated().map { index, track in
            let cues = track.cues.compactMap { cue -> SubtitleCue? in
                let start = max(cue.start - source.timelineStart, 0)
                let end = min(cue.end - source.timelineStart, duration)
                return end > start ? SubtitleCue(start: start, end: end, text: cue.text) : nil
            }
            let directory = staging.appendingPathComponent(AlternateRendition.folder(.subtitles, index))
            return AlternateRendition(kind: .subtitles, index: index, name: track.name, language: track.language,
                                      isDefault: index == defaultTrack, isForced: track.isForced,
                                      segments: try WebVTTWriter.write(cues, videoSegments: videoSegments, to: directory))
        }
    }

    private func writePlaylists(_ renditions: [Rendition], audio: [AlternateRendition], subtitles: [AlternateRendition]) throws {
        let target = PlaylistWriter.targetDuration(of: renditions, audio: audio)
        for rendition in renditions {
            let directory = staging.appendingPathComponent(rendition.rung.name)
            try PlaylistWriter.media(rendition.segments, targetDuration: target)
                .write(to: directory.appendingPathComponent(PlaylistWriter.mediaPlaylist), atomically: false, encoding: .utf8)
            try PlaylistWriter.iFrames(rendition)
                .write(to: directory.appendingPathComponent(PlaylistWriter.iFramePlaylist), atomically: false, encoding: .utf8)
        }
        for rendition in audio + subtitles {
            try PlaylistWriter.media(rendition.segments, targetDuration: target)
                .write(to: staging.appendingPathComponent(rendition.playlist), atomically: false, encoding: .utf8)
        }
        let master = renditions.isEmpty
            ? PlaylistWriter.audioOnlyMaster(audio, subtitles: subtitles, targetDuration: target)
            : PlaylistWriter.master(renditions, audio: audio, subtitles: subtitles, targetDuration: target)
        try master.write(to: staging.appendingPathComponent(PlaylistWriter.masterPlaylist), atomically: false, encoding: .utf8)
    }
}

/// Throttles progress reports: at most one per percent of source time, plus one per finished rung.
final class ProgressReporter: Sendable {
    private struct State {
        var fraction = 0.0
        var completed: [String] = []
    }

    private let report: @Sendable (TranscodeProgress) -> Void
    private let state = Mutex(State())

    init(report: @escaping @Sendable (TranscodeProgress) -> Void) {
        self.report = report
    }

    /// Source time decoded, as a fraction of the whole.
    func advance(_ fraction: Double) {
        let update = state.withLock { state -> TranscodeProgress? in
            guard fraction >= state.fraction + 0.01 else { return nil }
            state.fraction = fraction
            return TranscodeProgress(fraction: fraction, completedRungs: state.completed)
        }
        if let update { report(update) }
    }

    /// A rung's rendition is complete.
    func complete(rung: String) {
        let update = state.withLock { state in
            state.completed.append(rung)
            return TranscodeProgress(fraction: state.fraction, completedRungs: state.completed)
        }
        report(update)
    }
}
