import Foundation
import Synchronization
import VODFFmpeg

/// One long title transcoded in chunks that any worker can encode (`Transcoder.encodeChunk`), coordinated by
/// the process that holds the title: it plans the chunks, encodes the audio and subtitle tracks in one pass,
/// publishes EVENT playlists of the chunks done so far, and writes the final playlists.
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
    private let manifests = Mutex<[ChunkManifest]>([])
    private let published = Mutex(0)

    private init(chunks: [ChunkSpec], folder: URL, job: TranscodeJob, tracks: TrackPass) {
        self.chunks = chunks
        self.folder = folder
        self.job = job
        self.tracks = tracks
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
        let rungs = try LadderPlanner.plan(ladder: options.ladder, displayWidth: video.displayWidth,
                                           displayHeight: video.displayHeight)
        let planner = ChunkPlanner(frameRate: source.frameRate, segmentDurations: options.segmentDurations,
                                   firstChunkSeconds: firstChunkSeconds, chunkSeconds: chunkSeconds)
        let folder = try OutputFolder(destination: URL(fileURLWithPath: outputDirectory)).makeInPlace()
        let job = TranscodeJob(input: input, staging: folder, options: options, cancellation: cancellation, progress: { _ in })
        return SplitTitle(chunks: planner.chunks(duration: duration - timelineStart + (file.startTime ?? 0),
                                                 timelineStart: timelineStart, rungs: rungs),
                          folder: folder, job: job, tracks: try TrackPass(job: job, timelineStart: timelineStart))
    }

    /// Encodes every audio track and reads the subtitles: blocking, for a thread of its own, beside the chunks.
    public func readTracks() throws {
        try tracks.run()
    }

    /// Publishes the title as far as its first `completedChunks` chunks (all done) and the audio go: EVENT
    /// playlists listing the segments every rendition has. Returns how many segments they list, 0 while none
    /// can be.
    public func publish(completedChunks: Int) throws -> Int {
        let renditions = ChunkManifest.stitch(try loadManifests(completedChunks))
        let videoSegments = renditions.map(\.segments.count).min() ?? 0
        let count = min(videoSegments, tracks.closedSegments ?? videoSegments)
        return try published.withLock { published in
            guard count > published else { return published }
            let listed = renditions.map { rendition in
                var rendition = rendition
                rendition.segments = Array(rendition.segments.prefix(count))
                rendition.iFrames = rendition.iFrames.filter { $0.segmentIndex < count }
                return rendition
            }
            let audio = tracks.audio(listing: count)
            let target = max(PlaylistWriter.targetDuration(of: listed, audio: audio), Int(job.options.segmentDuration.rounded()))
            try PlaylistSet(renditions: listed, audio: audio, subtitles: [], targetDuration: target, complete: false)
                .write(to: folder)
            published = count
            return count
        }
    }

    /// Writes the final playlists once every chunk is done and `readTracks` has returned, and removes the
    /// chunks' manifests.
    public func finish() throws -> TranscodeResult {
        let renditions = ChunkManifest.stitch(try loadManifests(chunks.count))
        guard renditions.count == chunks[0].rungs.count, let last = renditions.first?.segments.last else {
            throw MediaError.invalid("a chunk of the title produced no picture")
        }
        let duration = last.start + last.duration
        let (audio, subtitles) = try tracks.finish(duration: duration, videoSegments: renditions[0].segments)
        try job.writePlaylists(renditions, audio: audio, subtitles: subtitles)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(ChunkManifest.folder))
        return TranscodeResult(folder: folder, duration: duration, renditions: renditions, audio: audio)
    }

    /// The manifests of the first `count` chunks, read once each.
    private func loadManifests(_ count: Int) throws -> [ChunkManifest] {
        try manifests.withLock { loaded in
            while loaded.count < count {
                guard let manifest = try ChunkManifest.read(from: folder, index: loaded.count) else {
                    throw MediaError.invalid("chunk \(loaded.count) of the title has no manifest")
                }
                loaded.append(manifest)
            }
            return Array(loaded.prefix(count))
        }
    }
}
