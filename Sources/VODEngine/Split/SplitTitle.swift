import Foundation
import Synchronization
import VODFFmpeg

/// One long title transcoded in chunks that any worker can encode (`Transcoder.encodeChunk`), coordinated by
/// the process that holds the title: it plans the chunks, encodes the audio and subtitle tracks in one pass,
/// publishes EVENT playlists of the segments done so far from the start (segment by segment, as the chunks'
/// encoders close them), and writes the final playlists.
///
/// The chunks cut at segment boundaries and keep the title's timeline, keyframe grid and segment numbering,
/// so the stitched playlists are continuous: no timestamp reset, no discontinuity, segment k aligned across
/// rungs. The rungs are video-only; every audio track is an audio-only rendition encoded once, so there is no
/// join in the sound.
public final class SplitTitle: @unchecked Sendable {
    /// The chunks to encode, in order: those of each group of rungs in turn (`groups`), each group's in the
    /// title's order.
    public let chunks: [ChunkSpec]
    /// The title's rungs, in ladder order.
    public let rungs: [PlannedRung]
    /// The chunks of each group of rungs, by their index: one group unless the plan groups the rungs.
    private let groups: [Range<Int>]
    private let folder: URL
    private let job: TranscodeJob
    private let tracks: TrackPass
    private let frameRate: FrameRate
    /// The source's chapters, and where the title's timeline starts in the source.
    private let chapters: (marked: [FileChapter], timelineStart: Double)
    /// How the title's CRF was chosen, when an analysis chose it.
    public let qualityAnalysis: QualityChoice?
    /// The manifests of each group's chunks done from the start, read once each.
    private let done: Mutex<[[ChunkManifest]]>
    /// How far each group is published, and which the master lists.
    private let published: Mutex<RungGroups>

    private init(groups: [[ChunkSpec]], rungs: [PlannedRung], folder: URL, job: TranscodeJob, tracks: TrackPass, frameRate: FrameRate,
                 analysis: QualityChoice?, pace: PublicationPace, chapters: (marked: [FileChapter], timelineStart: Double)) {
        chunks = groups.flatMap { $0 }
        self.rungs = rungs
        self.groups = groups.reduce(into: []) { ranges, group in
            let start = ranges.last?.upperBound ?? 0
            ranges.append(start..<(start + group.count))
        }
        done = Mutex(groups.map { _ in [] })
        published = Mutex(RungGroups(groups.map { $0.first?.rungs.map(\.name) ?? [] }, pace: pace))
        self.folder = folder
        self.job = job
        self.tracks = tracks
        self.frameRate = frameRate
        self.chapters = chapters
        qualityAnalysis = analysis
    }

    /// Plans the split of `input` into `outputDirectory` (emptied; the run's own), or nil when the source has no
    /// picture or lasts no longer than `splitAfter` seconds. The first chunk is the first segment, or lasts
    /// about `firstChunkSeconds` if that is longer; the others last about `chunkSeconds`.
    ///
    /// With `groupsRungs`, the rungs are encoded in the groups of a title published as it grows
    /// (`TranscodeJob.publicationGroups`): every chunk of the smallest rung first, which makes the title
    /// playable, then every chunk of the other rungs, which join the master once their own in-order frontier
    /// stays ahead of a player starting then, or once they are done.
    public static func plan(
        input: String, outputDirectory: String, options: TranscodeOptions, splitAfter: Double,
        chunkSeconds: Double = 30, firstChunkSeconds: Double = 0, groupsRungs: Bool = false, cancellation: CancellationFlag
    ) throws -> SplitTitle? {
        try InputPolicy.screen(path: input)
        let file = try MediaProber.open(path: input, cancellation: cancellation)
        guard let duration = file.duration, duration > splitAfter, let video = MediaProber.describe(file).video else {
            return nil
        }
        let source = try SourceStage(input: file, options: options)
        let timelineStart = try source.findTimelineStart()
        let ladder = try LadderPlanner.plan(ladder: options.ladder, displayWidth: video.displayWidth,
                                            displayHeight: video.displayHeight)
        let planner = ChunkPlanner(frameRate: source.frameRate, segmentDurations: options.segmentDurations,
                                   firstChunkSeconds: firstChunkSeconds, chunkSeconds: chunkSeconds)
        let folder = try OutputFolder(destination: URL(fileURLWithPath: outputDirectory)).makeInPlace()
        let job = TranscodeJob(input: input, staging: folder, options: options, cancellation: cancellation, progress: { _ in })
        // Every chunk carries the title's rungs, so every chunk encodes at the title's one CRF.
        let (controlled, analysis) = try job.rateControlled(ladder, rotation: video.rotation, duration: duration)
        let rungs = try job.titleRungs(controlled, file: file)
        let length = duration - timelineStart + (file.startTime ?? 0)
        let spans = planner.chunks(duration: length, timelineStart: timelineStart, rungs: rungs)
        let groups = (groupsRungs ? TranscodeJob.publicationGroups(of: rungs) : TranscodeJob.pictureGroups(of: rungs)).enumerated().map { group, groupRungs in
            spans.map { span in
                var chunk = span
                chunk.index = group * spans.count + span.index
                chunk.rungs = groupRungs
                chunk.segmentFormat = options.segmentFormat
                chunk.segmentDurations = options.segmentDurations
                return chunk
            }
        }
        return SplitTitle(groups: groups, rungs: rungs,
                          folder: folder, job: job, tracks: try TrackPass(job: job, timelineStart: timelineStart),
                          frameRate: source.frameRate, analysis: analysis,
                          pace: PublicationPace(duration: length, frameRate: source.frameRate, durations: options.segmentDurations),
                          chapters: (file.chapters, timelineStart))
    }

    /// Encodes every audio track and reads the subtitles, on a thread of its own beside the chunks; cancelling
    /// the task stops it through `cancellation`, the flag the title was planned with. The thread runs as low as
    /// the chunks after the first (`RungPriority.yieldToFirstChunk`): sound is encoded many times faster than
    /// real time, so it stays ahead of the pictures without taking the CPU from the chunk at the frontier, which
    /// decides when the title is playable.
    public func encodeTracks(cancellation: CancellationFlag) async throws {
        try await RungPriority.onLoweredThread("vod.tracks", cancellation: cancellation) { [tracks] in try tracks.run() }
    }

    /// Publishes the title as far as its chunks' segments go from the start, done or still encoding, and the
    /// audio with them: EVENT playlists listing, of each group of rungs the master lists (`RungGroups`), the
    /// segments every rendition of the group has, the first group no further than the audio. Returns the
    /// publication, nil when there is nothing new to list.
    public func publish() throws -> Publication? {
        let manifests = try groups.indices.map { try manifestsFromStart(of: $0) }
        let stitched = manifests.map(ChunkManifest.stitch)
        // Once the first rungs are done, the sound is closed at their end, not at the end of the rungs behind.
        if manifests[0].count == groups[0].count, manifests[0].allSatisfy(\.complete), tracks.isRead,
           let last = stitched[0].first?.segments.last {
            _ = try tracks.finish(duration: last.start + last.duration, videoSegments: stitched[0][0].segments,
                                  closedCaptions: try captions(of: manifests[0], duration: last.start + last.duration))
        }
        let counts = stitched.enumerated().map { group, renditions in
            guard renditions.count == chunks[groups[group].lowerBound].rungs.count else { return 0 }
            let video = renditions.map(\.segments.count).min() ?? 0
            return group == 0 ? min(video, tracks.closedSegments ?? video) : video
        }
        return try published.withLock { published in
            let (changed, makesPlayable) = published.publish(counts)
            guard changed else { return nil }
            let renditions = stitched.joined()
            let listed = rungs.compactMap { rung in
                published.listed(rung.name).flatMap { count in renditions.first { $0.rung.name == rung.name }?.prefix(count) }
            }
            let audio = tracks.audio(listing: published.segments)
            let target = max(PlaylistWriter.targetDuration(of: listed, audio: audio), Int(job.options.segmentDuration.rounded()))
            try PlaylistSet(renditions: listed, audio: audio, subtitles: [], targetDuration: target, complete: false,
                            format: job.options.segmentFormat)
                .write(to: folder)
            return Publication(segments: published.segments, makesPlayable: makesPlayable, rungs: listed.map(\.rung.name))
        }
    }

    /// Writes the final playlists once every chunk is done and `readTracks` has returned, and removes the
    /// chunks' manifests. The first segment, encoded fast, is encoded again at the rungs' own preset first. The
    /// closed captions of every chunk's pictures are read as one stream, so the title's are those of one
    /// transcode of the whole: announced in the master, listed in its tracks and turned into WebVTT.
    public func finish() throws -> TranscodeResult {
        let manifests = try groups.indices.map { try manifestsFromStart(of: $0) }
        guard zip(manifests, groups).allSatisfy({ $0.count == $1.count && $0.allSatisfy(\.complete) }) else {
            throw MediaError.invalid("chunk \(manifests.joined().filter(\.complete).count) of the title is not done")
        }
        let joined = manifests.flatMap(ChunkManifest.stitch)
        let stitched = rungs.compactMap { rung in joined.first { $0.rung.name == rung.name } }
        guard stitched.count == rungs.count, let last = stitched.first?.segments.last else {
            throw MediaError.invalid("a chunk of the title produced no picture")
        }
        let renditions = try job.replaceFastStart(of: stitched, leading: chunks[0].rungs, frameRate: frameRate,
                                                  timelineStart: chunks[0].timelineStart,
                                                  muxedAudio: nil)
        try ChunkManifest.checkInitSegments(in: folder, renditions: renditions.filter {
            job.options.segmentFormat.carrying($0.rung.codec) == .fmp4
        })
        let duration = last.start + last.duration
        let captions = try captions(of: manifests[0], duration: duration)
        let (audio, subtitles) = try tracks.finish(duration: duration, videoSegments: renditions[0].segments,
                                                   closedCaptions: captions)
        try job.writePlaylists(renditions, audio: audio, subtitles: subtitles,
                               chapters: ChapterList.onTimeline(chapters.marked, start: chapters.timelineStart, duration: duration),
                               closedCaptions: tracks.closedCaptionListings(of: captions))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(ChunkManifest.folder))
        return TranscodeResult(folder: folder, duration: duration, renditions: renditions, audio: audio,
                               tracks: tracks.listings(closedCaptions: captions), qualityAnalysis: qualityAnalysis)
    }

    /// The closed captions of a title lasting `duration`, read from the captions its first group's chunks
    /// (`manifests`, every chunk of the title's timeline) kept: every group's chunks carry the same pictures.
    private func captions(of manifests: [ChunkManifest], duration: Double) throws -> ClosedCaptionTrack {
        try ClosedCaptionTrack(frameRate: frameRate, chunks: manifests, frames: frameRate.timeBase.ticks(duration))
    }

    /// The manifests of the chunks of group `group` done from the start (read once each), then that of its next
    /// chunk, if any of its segments is closed in every rung.
    private func manifestsFromStart(of group: Int) throws -> [ChunkManifest] {
        try done.withLock { done in
            while done[group].count < groups[group].count {
                let index = groups[group].lowerBound + done[group].count
                guard let manifest = try ChunkManifest.read(from: folder, index: index) else { break }
                guard manifest.complete else { return done[group] + [manifest] }
                done[group].append(manifest)
            }
            return done[group]
        }
    }
}
