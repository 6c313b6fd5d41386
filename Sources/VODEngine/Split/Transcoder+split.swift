import Foundation
import VODFFmpeg

extension Transcoder {
    /// Encodes one chunk of a split title (`SplitTitle`) into the title's folder, `outputDirectory`, on a thread
    /// of its own: its segments for every rung, then its manifest. Cancelling the task stops it within a second.
    /// Every chunk but the first runs at a lower priority, so that on a machine whose workers share the cores
    /// the first chunk, which makes the title playable, is done first.
    public func encodeChunk(input: String, outputDirectory: String, chunk: ChunkSpec) async throws {
        let cancellation = CancellationFlag()
        try await DedicatedThread.run("vod.chunk", cancellation: cancellation) {
            if chunk.index > 0 { RungPriority.yieldToFirstChunk() }
            return try encodeChunkBlocking(input: input, outputDirectory: outputDirectory, chunk: chunk, cancellation: cancellation)
        }
    }

    /// The blocking form of `encodeChunk`.
    public func encodeChunkBlocking(input: String, outputDirectory: String, chunk: ChunkSpec, cancellation: CancellationFlag) throws {
        let folder = URL(fileURLWithPath: outputDirectory)
        let job = TranscodeJob(input: input, staging: folder, options: options, cancellation: cancellation, progress: { _ in })
        do {
            let file = try MediaProber.open(path: input, cancellation: cancellation)
            guard let video = MediaProber.describe(file).video else { throw MediaError.invalid("the file has no picture to encode") }
            let source = try SourceStage(input: file, options: options, window: .chunk(chunk))
            let (_, renditions) = try job.encode(chunk.rungs, video: video, source: source, muxedAudio: nil, audioWriters: [],
                                                 publisher: nil, firstSegment: chunk.firstSegment)
            try ChunkManifest(index: chunk.index, renditions: renditions).write(to: folder)
        } catch {
            if cancellation.isCancelled, (error as? FFmpegError)?.isCancellation ?? (error is CancellationError) {
                throw CancellationError()
            }
            throw error
        }
    }
}
