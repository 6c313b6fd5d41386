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
    /// The chunks to encode, in order.
    public let chunks: [ChunkSpec]
    private let folder: URL
    private let job: TranscodeJob
    private let tracks: TrackPass
    private let frameRate: FrameRate
    /// The source's chapters, and where the title's timeline starts in the source.
    private let chapters: (marked: [FileChapter], timelineStart: Double)
    /// How the title's CRF was chosen, when an analysis chose it.
    public let qualityAnalysis: QualityChoice?
    /// The manifests of the chunks done from the start, read once each.
    private let done = Mutex<[ChunkManifest]>([])
    /// How many segments are published, and the pace of their publication.
    private let published: Mutex<(segments: Int, pace: PublicationPace)>

    private init(chunks: [ChunkSpec], folder: URL, job: TranscodeJob, tracks: TrackPass, frameRate: FrameRate,
                 analysis: QualityChoice?, pace: PublicationPace, chapters: (marked: [FileChapter], timelineStart: Double)) {
        self.chunks = chunks
        self.folder = folder
        self.job = job
        self.tracks = tracks
        self.frameRate = frameRate
        self.chapters = chapters
        qualityAnalysis = analysis
        published = Mutex((0, pace))
    }

    /// Plans the split of `input` into `outputDirectory` (emptied; the run's own), or nil when the source has no
    /// picture or lasts no longer than `splitAfter` seconds. The first chunk is the first segment, or lasts
    /// about `firstChunkSeconds` if that is longer; the others last about `chunkSeconds`.
    public static func plan(
        input: String, outputDirectory: String, options: TranscodeOptions, splitAfter: Double,
        chunkSeconds: Double = 30, firstChunkSeconds: Double = 0, cancellation: CancellationFlag
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
        let (rungs, analysis) = try job.rateControlled(ladder, rotation: video.rotation, duration: duration)
        let length = duration - timelineStart + (file.startTime ?? 0)
        let chunks = planner.chunks(duration: length, timelineStart: timelineStart, rungs: rungs).map { chunk in
            var chunk = chunk
            chunk.segmentFormat = options.segmentFormat
            return chunk
        }
        return SplitTitle(chunks: chunks,
                          folder: folder, job: job, tracks: try TrackPass(job: job, timelineStart: timelineStart),
                          frameRate: source.frameRate, analysis: analysis,
                          pace: PublicationPace(duration: length, frameRate: source.frameRate, durations: options.segmentDurations),
                          chapters: (file.chapters, timelineStart))
    }

    /// Encodes every audio track and reads the subtitles: blocking, for a thread of its own, beside the chunks.
    public func readTracks() throws {
        try tracks.run()
    }

    /// Publishes the title as far as its chunks' segments go from the start, done or still encoding, and the
    /// audio with them: EVENT playlists listing the segments every rendition has. Returns the publication, nil
    /// when there is nothing new to list.
    public func publish() throws -> Publication? {
        let renditions = ChunkManifest.stitch(try manifestsFromStart())
        guard renditions.count == chunks[0].rungs.count else { return nil }
        let videoSegments = renditions.map(\.segments.count).min() ?? 0
        let count = min(videoSegments, tracks.closedSegments ?? videoSegments)
        return try published.withLock { published in
            guard count > published.segments else { return nil }
            let listed = renditions.map { $0.prefix(count) }
            let audio = tracks.audio(listing: count)
            let target = max(PlaylistWriter.targetDuration(of: listed, audio: audio), Int(job.options.segmentDuration.rounded()))
            try PlaylistSet(renditions: listed, audio: audio, subtitles: [], targetDuration: target, complete: false,
                            format: job.options.segmentFormat)
                .write(to: folder)
            published.segments = count
            return published.pace.publication(of: count)
        }
    }

    /// Writes the final playlists once every chunk is done and `readTracks` has returned, and removes the
    /// chunks' manifests. The first segment, encoded fast, is encoded again at the rungs' own preset first. The
    /// closed captions of every chunk's pictures are read as one stream, so the title's are those of one
    /// transcode of the whole: announced in the master, listed in its tracks and turned into WebVTT.
    public func finish() throws -> TranscodeResult {
        let manifests = try manifestsFromStart()
        guard manifests.count == chunks.count, manifests.allSatisfy(\.complete) else {
            throw MediaError.invalid("chunk \(manifests.filter(\.complete).count) of the title is not done")
        }
        let stitched = ChunkManifest.stitch(manifests)
        guard stitched.count == chunks[0].rungs.count, let last = stitched.first?.segments.last else {
            throw MediaError.invalid("a chunk of the title produced no picture")
        }
        let renditions = try job.replaceFastStart(of: stitched, frameRate: frameRate, timelineStart: chunks[0].timelineStart,
                                                  muxedAudio: nil)
        if job.options.segmentFormat == .fmp4 { try ChunkManifest.checkInitSegments(in: folder, renditions: renditions) }
        let duration = last.start + last.duration
        let captions = try ClosedCaptionTrack(frameRate: frameRate, chunks: manifests, frames: frameRate.timeBase.ticks(duration))
        let (audio, subtitles) = try tracks.finish(duration: duration, videoSegments: renditions[0].segments,
                                                   closedCaptions: captions)
        try job.writePlaylists(renditions, audio: audio, subtitles: subtitles,
                               chapters: ChapterList.onTimeline(chapters.marked, start: chapters.timelineStart, duration: duration),
                               closedCaptions: tracks.closedCaptionListings(of: captions))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(ChunkManifest.folder))
        return TranscodeResult(folder: folder, duration: duration, renditions: renditions, audio: audio,
                               tracks: tracks.listings(closedCaptions: captions), qualityAnalysis: qualityAnalysis)
    }

    /// The manifests of the chunks done from the start (read once each), then that of the next chunk, if any
    /// of its segments is closed in every rung.
    private func manifestsFromStart() throws -> [ChunkManifest] {
        try done.withLock { done in
            while done.count < chunks.count {
                guard let manifest = try ChunkManifest.read(from: folder, index: done.count) else { break }
                guard manifest.complete else { return done + [manifest] }
                done.append(manifest)
            }
            return done
        }
    }
}
