import Foundation
import VODFFmpeg

/// Transcodes one input into an HLS ladder: one decode, one scale and one H.264 encode per rung, AAC once.
///
/// The blocking FFmpeg work runs on dedicated threads; cancelling the calling task stops it within a second
/// through FFmpeg's interrupt callback. Output is written into a temporary folder beside the destination and
/// renamed into place only when complete, so a failed or cancelled run leaves nothing behind.
public struct Transcoder: Sendable {
    public var options: TranscodeOptions

    public init(options: TranscodeOptions = TranscodeOptions()) {
        self.options = options
        FFmpegLog.keepErrorsOnly()
    }

    /// Transcodes `input` into `outputDirectory`, which will hold `master.m3u8` and one folder per rung.
    /// Throws `MediaError` for inputs that are refused or broken, `FFmpegError` for library failures and
    /// `CancellationError` when the task is cancelled.
    ///
    /// With `onPublish`, the title is published as it grows instead of appearing whole: it is written in place
    /// in `outputDirectory` (which must be the run's own), with EVENT playlists rewritten each time every
    /// rendition has one more segment, and VOD playlists at the end. `onPublish` is told of each publication:
    /// how many segments each playlist lists, and whether it makes the title playable (the first whose pace
    /// stays ahead of a player, `PublicationPace`). A failed or cancelled run still leaves nothing behind.
    public func transcode(
        input: String,
        outputDirectory: String,
        progress: @escaping @Sendable (TranscodeProgress) -> Void = { _ in },
        onPublish: (@Sendable (Publication) -> Void)? = nil
    ) async throws -> TranscodeResult {
        let cancellation = CancellationFlag()
        return try await DedicatedThread.run("vod.decode", cancellation: cancellation) {
            defer { MallocArenas.releaseFreeMemory() }
            return try transcodeBlocking(input: input, outputDirectory: outputDirectory,
                                  cancellation: cancellation, progress: progress, onPublish: onPublish)
        }
    }

    /// The blocking form of `transcode`, for callers that run it on a thread of their own: it returns or throws
    /// once every pipeline thread has stopped, and throws `CancellationError` soon after `cancellation` is set.
    public func transcodeBlocking(
        input: String,
        outputDirectory: String,
        cancellation: CancellationFlag,
        progress: @escaping @Sendable (TranscodeProgress) -> Void = { _ in },
        onPublish: (@Sendable (Publication) -> Void)? = nil
    ) throws -> TranscodeResult {
        let output = OutputFolder(destination: URL(fileURLWithPath: outputDirectory))
        let staging = onPublish == nil ? try output.makeStaging() : try output.makeInPlace()
        do {
            // Nobody sees a title that is not published as it grows before it is whole: it needs no fast start.
            let job = TranscodeJob(input: input, staging: staging, options: onPublish == nil ? options.withoutFastStart : options,
                                   cancellation: cancellation, progress: progress, onPublish: onPublish)
            let (duration, renditions, audio) = try job.run()
            try cancellation.check("finish")
            if onPublish == nil { try output.commit(staging) }
            progress(TranscodeProgress(fraction: 1, completedRungs: renditions.map(\.rung.name),
                                       rungs: renditions.map { RungProgress(name: $0.rung.name, fraction: 1, listed: true) }))
            return TranscodeResult(folder: output.destination, duration: duration, renditions: renditions, audio: audio,
                                   tracks: job.tracks, qualityAnalysis: job.qualityAnalysis)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            // A failing stage also sets the flag to stop the others; only a stop from outside is a cancellation.
            if cancellation.isCancelled, (error as? FFmpegError)?.isCancellation ?? (error is CancellationError) {
                throw CancellationError()
            }
            throw error
        }
    }
}
