import Foundation
import VODFFmpeg

extension Transcoder {
    /// Encodes one chunk of a split title (`SplitTitle`) into the title's folder, `outputDirectory`, on a thread
    /// of its own: its segments for every rung, recorded in its manifest each time every rung has closed one
    /// more (so the title's coordinator publishes them while the chunk goes on), and the manifest once more when
    /// it is done. Cancelling the task stops it within a second.
    ///
    /// Every chunk but the first runs at a lower priority, so that on a machine whose workers share the cores
    /// the first chunk, which makes the title playable, is done first; and with `yield`, a chunk pauses while
    /// its worker says an earlier chunk of the title is being encoded on the same machine (`FrontierYield`).
    public func encodeChunk(input: String, outputDirectory: String, chunk: ChunkSpec, yield: FrontierYield? = nil) async throws {
        let cancellation = CancellationFlag()
        try await DedicatedThread.run("vod.chunk", cancellation: cancellation) {
            defer { MallocArenas.releaseFreeMemory() }
            if chunk.index > 0 { RungPriority.yieldToFirstChunk() }
            return try encodeChunkBlocking(input: input, outputDirectory: outputDirectory, chunk: chunk, yield: yield,
                                           cancellation: cancellation)
        }
    }

    /// The blocking form of `encodeChunk`.
    ///
    /// An earlier attempt's segments that its manifest lists may already be published: they are kept, and the
    /// chunk goes on from the first segment it does not list (a done chunk's manifest leaves nothing to do).
    public func encodeChunkBlocking(input: String, outputDirectory: String, chunk: ChunkSpec, yield: FrontierYield? = nil,
                                    cancellation: CancellationFlag) throws {
        let folder = URL(fileURLWithPath: outputDirectory)
        var options = chunk.startsTitle ? self.options : self.options.withoutFastStart
        options.segmentFormat = chunk.segmentFormat
        if let durations = chunk.segmentDurations {
            (options.segmentDuration, options.firstSegmentDuration, options.shortSegments) = (durations.target, durations.first, durations.shortCount)
        }
        var beforePicture: (@Sendable () -> Void)?
        if let yield { beforePicture = { yield.waitWhileBehind(cancellation: cancellation) } }
        let job = TranscodeJob(input: input, staging: folder, options: options, cancellation: cancellation, progress: { _ in },
                               beforePicture: beforePicture)
        do {
            let earlier = try ChunkManifest.read(from: folder, index: chunk.index)
            if earlier?.complete == true { return }
            let file = try MediaProber.open(path: input, cancellation: cancellation)
            guard let video = MediaProber.describe(file).video else { throw MediaError.invalid("the file has no picture to encode") }
            let rest = earlier.map { chunk.resumed(after: $0, frameRate: FrameRate(of: file, options: options), durations: options.segmentDurations) } ?? chunk
            if var done = earlier, let end = chunk.endFrame, rest.startFrame >= end {
                done.complete = true
                return try done.write(to: folder)
            }
            let source = try SourceStage(input: file, options: options, window: .chunk(rest), keepsHDR: rest.rungs.contains(where: \.isHDR))
            let (captions, frameRate, durations) = (source.chunkCaptions, source.frameRate, options.segmentDurations)
            // A manifest lists the captions of the pictures of the segments it lists, so that a next attempt, which
            // goes on after them, neither loses nor repeats any.
            let publisher = LivePublisher(plan: chunk.rungs, audio: []) { renditions, _, _ in
                let listed = ChunkManifest(index: chunk.index, complete: false, renditions: renditions)
                let end = rest.resumed(after: listed, frameRate: frameRate, durations: durations).startFrame
                try ChunkManifest(index: chunk.index, complete: false, after: earlier, renditions: renditions,
                                  captions: captions?.pictures(before: end) ?? []).write(to: folder)
            }
            let (_, renditions) = try job.encode(rest.rungs, video: video, source: source, muxedAudio: nil, audioWriters: [],
                                                 publisher: publisher, firstSegment: rest.firstSegment)
            try ChunkManifest(index: chunk.index, complete: true, after: earlier, renditions: renditions,
                              captions: captions?.pictures() ?? []).write(to: folder)
        } catch {
            if cancellation.isCancelled, (error as? FFmpegError)?.isCancellation ?? (error is CancellationError) {
                throw CancellationError()
            }
            throw error
        }
    }
}

extension ChunkSpec {
    /// The part of this chunk after the segments `earlier` lists: it starts at the next segment boundary of the
    /// title's schedule (`frameRate`, `durations`).
    func resumed(after earlier: ChunkManifest, frameRate: FrameRate, durations: SegmentDurations) -> ChunkSpec {
        let listed = earlier.renditions.map(\.segments.count).min() ?? 0
        guard listed > 0 else { return self }
        var schedule = SegmentSchedule(frameRate: frameRate, durations: durations)
        for _ in 0..<(firstSegment + listed) { _ = schedule.nextBoundary() }
        var rest = self
        rest.startFrame = schedule.boundaryFrame
        rest.firstSegment = firstSegment + listed
        return rest
    }
}
