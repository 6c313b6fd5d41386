import Foundation
import Synchronization
import VODFFmpeg
import VODModel

/// One run of the pipeline, on dedicated threads: this thread demuxes, decodes and encodes audio, and one
/// thread per rung scales and encodes video and writes its segments. Bounded queues join them.
final class TranscodeJob: @unchecked Sendable {
    let input: String
    let staging: URL
    let options: TranscodeOptions
    let cancellation: CancellationFlag
    let progress: ProgressReporter
    /// When set, the title is published as it grows (`LivePublisher`), and told of each publication.
    private let onPublish: (@Sendable (Publication) -> Void)?
    /// Waited on before each picture leaves the source (a chunk yielding to its title's frontier).
    private let beforePicture: (@Sendable () -> Void)?
    private let failure = Mutex<(any Error)?>(nil)
    /// Opens once the title is playable, or its first group of rungs is done: the other groups start then.
    let leadingPlayable = StartGate()
    /// The audio muxed into the first segment of each rung (by name) that started fast, once `encode` returns.
    var firstSegmentAudio: [String: [Packet]] = [:]
    /// How the title's CRF was chosen, once `run` has planned its rungs, when an analysis chose it.
    private(set) var qualityAnalysis: QualityChoice?
    /// Every track of the source, each audio track with its loudness, once `run` has returned.
    private(set) var tracks: [TrackListing] = []

    convenience init(input: String, staging: URL, options: TranscodeOptions, cancellation: CancellationFlag,
                     progress: @escaping @Sendable (TranscodeProgress) -> Void, onPublish: (@Sendable (Publication) -> Void)? = nil,
                     beforePicture: (@Sendable () -> Void)? = nil) {
        self.init(input: input, staging: staging, options: options, cancellation: cancellation,
                  reporter: ProgressReporter(report: progress), onPublish: onPublish, beforePicture: beforePicture)
    }

    /// A job reporting its progress through `reporter`, which another job of the same title may share.
    init(input: String, staging: URL, options: TranscodeOptions, cancellation: CancellationFlag, reporter: ProgressReporter,
         onPublish: (@Sendable (Publication) -> Void)?, beforePicture: (@Sendable () -> Void)?) {
        self.input = input
        self.staging = staging
        self.options = options
        self.cancellation = cancellation
        progress = reporter
        self.onPublish = onPublish
        self.beforePicture = beforePicture
    }

    /// Runs the pipeline to completion and writes every playlist into the staging folder.
    func run() throws -> (duration: Double, renditions: [Rendition], audio: [AlternateRendition]) {
        try InputPolicy.screen(path: input)
        let file = try MediaProber.open(path: input, cancellation: cancellation)
        let source = try SourceStage(input: file, options: options)
        guard let video = MediaProber.describe(file).video else {
            return try runAudioOnly(source, duration: file.duration, chapters: file.chapters)
        }
        let ladder = try LadderPlanner.plan(ladder: options.ladder, displayWidth: video.displayWidth,
                                            displayHeight: video.displayHeight)
        // A title published as it grows starts at once, at the default CRF, while the analysis runs beside it.
        let pending = onPublish == nil ? nil : pendingQuality(of: ladder, rotation: video.rotation, duration: file.duration)
        let (controlled, analysis) = try pending.map { ($0.plan, nil) }
            ?? rateControlled(ladder, rotation: video.rotation, duration: file.duration)
        let plan = try titleRungs(controlled, file: file)
        progress.follow(rungs: plan.map(\.name), duration: file.duration ?? 0)
        // One stereo track is muxed into every rung; several tracks, or a surround one, become audio-only
        // renditions the player picks from, as does a normalized track: its sound lags its pictures. In fMP4 (CMAF)
        // every file holds one track, so the sound is always an audio-only rendition, which DASH describes too.
        let muxesAudio = source.audioEncodings.count < 2 && options.loudnessTarget == nil && options.segmentFormat == .ts
        let audioRenditions = muxesAudio ? [] : describeAudio(of: source)
        let groups = onPublish == nil ? Self.pictureGroups(of: plan) : Self.publicationGroups(of: plan)
        let publisher = makePublisher(plan: plan, groups: groups.map { $0.map(\.name) }, audio: audioRenditions,
                                      duration: file.duration, frameRate: source.frameRate)
        let audioWriters = muxesAudio ? [] : try makeAudioWriters(source, publisher: publisher)
        let muxedAudio = audioWriters.isEmpty ? source.audioEncodings.first : nil
        // The audio renditions close with the first rungs, so that their last segment is out before the rungs behind.
        var audio: [AlternateRendition] = []
        let (duration, encoded) = try encode(groups, ladder: plan, video: video, source: source, muxedAudio: muxedAudio,
                                             audioWriters: audioWriters, publisher: publisher, pendingQuality: pending?.pending) {
            audio = try finish(audioRenditions, writers: audioWriters, duration: $0)
        }
        let chosen = try pending?.pending.choice()
        qualityAnalysis = chosen ?? analysis
        let renditions = try replaceFastStart(of: chosen.map { chosen in encoded.map { $0.at(crf: chosen.crf) } } ?? encoded,
                                              leading: groups[0], frameRate: source.frameRate,
                                              timelineStart: source.timelineStart, muxedAudio: muxedAudio)
        let subtitles = try subtitleRenditions(of: source, closedCaptions: source.closedCaptions,
                                               videoSegments: renditions.first?.segments ?? [], duration: duration)
        try writePlaylists(renditions, audio: audio, subtitles: subtitles,
                           chapters: ChapterList.onTimeline(file.chapters, start: source.timelineStart, duration: duration),
                           closedCaptions: source.closedCaptionListings(of: source.closedCaptions))
        tracks = source.trackListings(closedCaptions: source.closedCaptions)
        return (duration, renditions, audio)
    }

    /// Encodes the rungs of `plan` from `source`, each on a thread of its own, and returns the duration and the
    /// finished renditions: the pipeline of one title, or of one chunk of a split title (`firstSegment`).
    /// `audioLeadIn` holds, by rung, audio packets to mux before any the source sends; with `pendingQuality`,
    /// the rungs take its CRF at the second segment. Each rung's encoder threads are its share of `ladder`'s
    /// (`plan` when nil).
    func encode(_ plan: [PlannedRung], video: VideoStreamInfo, source: SourceStage, muxedAudio: AudioEncoderStage?,
                audioWriters: [AudioRenditionWriter], publisher: LivePublisher?, firstSegment: Int = 0,
                audioLeadIn: [String: [Packet]] = [:], pendingQuality: PendingQuality? = nil, ladder: [PlannedRung]? = nil)
        throws -> (duration: Double, renditions: [Rendition]) {
        let rungs = try plan.map { rung in
            let directory = staging.appendingPathComponent(rung.name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let initSegment = firstSegment == 0 ? directory.appendingPathComponent(SegmentFormat.initSegment)
                : try ChunkManifest.initSegment(in: staging, rung: rung.name, firstSegment: firstSegment)
            return try RungEncoder(rung: rung, threads: options.threads ?? Self.encoderThreads(for: rung, in: (ladder ?? plan).filter { $0.isHDR == rung.isHDR }),
                                   rotation: video.rotation, frameRate: source.frameRate,
                                   audio: muxedAudio, options: options, directory: directory, initSegment: initSegment,
                                   publisher: publisher, cancellation: cancellation,
                                   firstSegment: firstSegment, audioLeadIn: audioLeadIn[rung.name] ?? [],
                                   pendingQuality: pendingQuality, endFrame: source.expectedEndFrame,
                                   encoded: { [progress] in progress.encoded(rung: rung.name, seconds: $0) })
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
                    beforePicture?()
                    for queue in fromSource { try queue.push(.video(try frame.reference(), isKeyframe: isKeyframe)) }
                },
                audio: { track, packet in
                    if !audioWriters.isEmpty {
                        try audioWriters[track].add(packet)
                    } else if muxedAudio != nil {
                        for queue in fromSource { try queue.push(.audio(try packet.reference())) }
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
        firstSegmentAudio = Dictionary(uniqueKeysWithValues: rungs.map { ($0.rung.name, $0.firstSegmentAudio) })
        return (duration, results.withLock { collected in plan.compactMap { collected[$0.name] } })
    }

    /// An audio-only title: every encoding of every track is a rendition of its own, cut on the same schedule as
    /// a video title's, and subtitles follow the first rendition's segments.
    private func runAudioOnly(_ source: SourceStage, duration: Double?, chapters: [FileChapter]) throws
        -> (duration: Double, renditions: [Rendition], audio: [AlternateRendition]) {
        let descriptions = describeAudio(of: source)
        let publisher = makePublisher(plan: [], groups: [[]], audio: descriptions, duration: duration, frameRate: source.frameRate)
        let writers = try makeAudioWriters(source, publisher: publisher)
        let duration = try source.run(video: { _, _ in }, audio: { try writers[$0].add($1) }, progress: progress.advance)
        let audio = try finish(descriptions, writers: writers, duration: duration)
        let subtitles = try subtitleRenditions(of: source, closedCaptions: nil, videoSegments: audio.first?.segments ?? [],
                                               duration: duration)
        try writePlaylists([], audio: audio, subtitles: subtitles,
                           chapters: ChapterList.onTimeline(chapters, start: source.timelineStart, duration: duration))
        tracks = source.trackListings(closedCaptions: nil)
        return (duration, [], audio)
    }

    /// One audio-only rendition writer per encoding, each in its own folder, telling `publisher` of its segments.
    func makeAudioWriters(_ source: SourceStage, publisher: LivePublisher?) throws -> [AudioRenditionWriter] {
        try makeAudioWriters(source, publish: publisher.map { publisher in { try publisher.closed($1, ofAudio: $0) } })
    }

    /// One audio-only rendition writer per encoding, each in its own folder; `publish` is told of each segment
    /// closed, with the index of its encoding.
    func makeAudioWriters(_ source: SourceStage, publish: ((Int, Segment) throws -> Void)?) throws -> [AudioRenditionWriter] {
        try source.audioEncodings.indices.map { index in
            let directory = staging.appendingPathComponent(AlternateRendition.folder(.audio, index))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return AudioRenditionWriter(directory: directory, encoding: source.audioEncodings[index], frameRate: source.frameRate,
                                        durations: options.segmentDurations, format: options.segmentFormat,
                                        cancellation: cancellation,
                                        publish: publish.map { publish in { try publish(index, $0) } })
        }
    }

    /// The publisher of a title published as it grows, if this one is: of about `duration` seconds (the
    /// container's word), cut at `frameRate`'s keyframes, its rungs in `groups` (of names).
    private func makePublisher(plan: [PlannedRung], groups: [[String]], audio: [AlternateRendition], duration: Double?,
                               frameRate: FrameRate) -> LivePublisher? {
        onPublish.map { onPublish in
            let onPublish: @Sendable (Publication) -> Void = { [progress, leadingPlayable] publication in
                progress.listed(publication.rungs)
                onPublish(publication)
                if publication.makesPlayable { leadingPlayable.open() }
            }
            let pace = PublicationPace(duration: duration ?? 0, frameRate: frameRate, durations: options.segmentDurations)
            return LivePublisher(plan: plan, groups: groups, audio: audio, pace: pace, write: LivePublisher.playlists(
                folder: staging, segmentDuration: options.segmentDuration, format: options.segmentFormat), onPublish: onPublish)
        }
    }

    /// x264 threads for one rung: its share of the ladder's pixels of x264's own default (1.5 threads per core).
    /// An HDR rung's ladder is the HDR rungs, so that the SDR rungs encode as they would without them.
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

    /// The audio renditions, before any segment: each track's AAC encoding in the `aac` group, its AC-3 one in
    /// the `ac3` group, with the source's default track (else the first) the default of each group.
    func describeAudio(of source: SourceStage) -> [AlternateRendition] {
        guard let firstTrack = source.audioTracks.first else { return [] }
        let defaultTrack = source.audioTracks.first { $0.isDefault } ?? firstTrack
        return source.audioTracks.flatMap { track in
            track.encoders.map { encoding in
                let index = source.audioEncodings.firstIndex { $0 === encoding }!
                let defaultEncoding = defaultTrack.encoders.first { $0.format == encoding.format }
                    ?? source.audioTracks.lazy.flatMap(\.encoders).first { $0.format == encoding.format }
                return AlternateRendition(kind: .audio, index: index, name: track.name, language: track.language,
                                          isDefault: encoding === defaultEncoding, channels: encoding.format.channels,
                                          codec: encoding.codecString ?? "mp4a.40.2", group: encoding.format.group)
            }
        }
    }

    /// Closes the audio renditions at `duration` and gives each its segments.
    func finish(_ audio: [AlternateRendition], writers: [AudioRenditionWriter], duration: Double) throws -> [AlternateRendition] {
        try audio.map { rendition in
            var rendition = rendition
            rendition.segments = try writers[rendition.index].finish(end: duration)
            return rendition
        }
    }
}
