import Foundation
import Logging
import VODCatalog
import VODEngine

extension TranscodeService {
    /// The split of a leased title into chunks, when the policy splits a title this long and it has a picture.
    func splitTitle(_ job: JobLease, output: String, cancellation: CancellationFlag) async throws -> SplitTitle? {
        guard split.splits(duration: job.item.duration), let after = split.after else { return nil }
        let options = transcoder(for: job.item).options
        let split = self.split
        return try await DedicatedThread.run("vod.split", cancellation: cancellation) {
            try SplitTitle.plan(input: job.item.sourcePath, outputDirectory: output, options: options, splitAfter: after,
                                chunkSeconds: split.chunkSeconds, firstChunkSeconds: split.firstChunkSeconds,
                                groupsRungs: true, cancellation: cancellation)
        }
    }

    /// Coordinates a split title: queues its chunks for every worker, encodes its tracks, takes its own chunks
    /// while others take theirs, publishes the segments done from the start as they land (segment by segment,
    /// beside its own encoding; playable once the publication stays ahead of a player), and writes the final
    /// playlists. A chunk that failed for good fails the title with its reason.
    func coordinate(_ title: SplitTitle, job: JobLease, output: String, worker: WorkerIdentity, progressWriter: ProgressWriter,
                    cancellation: CancellationFlag, logger: Logger) async throws -> TranscodeResult {
        let catalog = library.catalog
        guard try await catalog.addChunks(job, outputPath: output, specs: try title.chunks.map { try $0.json }) else {
            throw LeaseLost()
        }
        logger.info("title split", metadata: ["chunks": "\(title.chunks.count)"])
        let tracks = Task { try await title.encodeTracks(cancellation: cancellation) }
        defer { cancellation.cancel() }
        let publishing = Task { try await publishWhileEncoding(title, job: job, output: output, progressWriter: progressWriter, logger: logger) }
        defer { publishing.cancel() }
        var lastReclaim = ContinuousClock.now
        while true {
            try Task.checkCancellation()
            // A chunk whose worker died goes back to the queue after its lease, also while every worker is busy.
            if ContinuousClock.now - lastReclaim > min(lease / 3, .seconds(5)) {
                await reclaimLeases()
                lastReclaim = .now
            }
            if let chunk = try await catalog.claimNextChunk(worker: worker.id, lease: lease, mediaID: job.id) {
                await encode(chunk, input: job.item.sourcePath, logger: logger)
            }
            let chunks = try await catalog.chunks(of: job.id)
            if let failed = chunks.first(where: { $0.status == .failed }) {
                throw MediaError.invalid("chunk \(failed.index + 1) of \(chunks.count) failed: \(failed.error ?? "no reason given")")
            }
            if chunks.allSatisfy({ $0.status == .done }) { break }
            if !chunks.contains(where: { $0.status == .pending }) { try await Task.sleep(for: .milliseconds(250)) }
        }
        publishing.cancel()
        if case .failure(let error) = await publishing.result, !Self.isCancellation(error) {
            logger.warning("publishing the title as it grew stopped", metadata: ["error": "\(error)"])
        }
        try await tracks.value
        let result = try await DedicatedThread.run("vod.stitch") { try title.finish() }
        progressWriter.report(TranscodeProgress(fraction: 1, completedRungs: title.rungs.map(\.name),
                                                rungs: title.rungs.map { RungProgress(name: $0.name, fraction: 1, listed: true) }))
        try await catalog.removeChunks(of: job.id)
        return result
    }

    /// Publishes `title` as its segments land, until cancelled: each publication that lists more, and the item
    /// playable with the first that stays ahead of a player; and reports the share of chunks done.
    private func publishWhileEncoding(_ title: SplitTitle, job: JobLease, output: String, progressWriter: ProgressWriter,
                                      logger: Logger) async throws {
        let rungs = title.rungs
        var listed: [String] = []
        while !Task.isCancelled {
            let publication = try await DedicatedThread.run("vod.publish") { try title.publish() }
            listed = publication?.rungs ?? listed
            if publication?.makesPlayable == true {
                await publish(job, output: output, progressWriter: progressWriter, logger: logger)
            }
            let chunks = try await library.catalog.chunks(of: job.id)
            let fraction = Double(chunks.filter { $0.status == .done }.count) / Double(max(chunks.count, 1))
            progressWriter.report(TranscodeProgress(fraction: fraction, completedRungs: [], rungs: rungs.map { rung in
                RungProgress(name: rung.name, fraction: fraction, listed: listed.contains(rung.name))
            }))
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Encodes one leased chunk of `input` under its lease, yielding to an earlier chunk of its title encoded on
    /// this machine (`watchFrontier`), and records the outcome: done, back to the queue (graceful shutdown), or a
    /// failed attempt, retried alone until `maxAttempts`.
    func encode(_ chunk: ChunkLease, input: String, logger: Logger) async {
        let catalog = library.catalog
        var logger = logger
        logger[metadataKey: "media.id"] = "\(chunk.chunk.mediaID)"
        logger[metadataKey: "chunk"] = "\(chunk.chunk.index)"
        let keeper = LeaseKeeper(chunk: chunk, catalog: catalog, lease: lease)
        let yield = FrontierYield()
        do {
            let spec = try ChunkSpec(json: chunk.chunk.specJSON)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await keeper.run() }
                group.addTask { try await watchFrontier(of: chunk, yield) }
                group.addTask {
                    try await transcoder.encodeChunk(input: input, outputDirectory: chunk.chunk.outputPath, chunk: spec, yield: yield)
                }
                defer { group.cancelAll() }
                try await group.next()
            }
            if try await catalog.markChunkDone(chunk) {
                logger.debug("chunk encoded")
            }
        } catch is LeaseLost {
            logger.notice("chunk lease lost; its output is left to the next attempt")
        } catch let error where Self.isCancellation(error) {
            await detached { try await catalog.requeueChunk(chunk) }
        } catch {
            let reason = Self.reason(for: error)
            let logger = logger
            await detached {
                let status = try await catalog.markChunkFailed(chunk, reason: reason, maxAttempts: maxAttempts)
                logger.warning("chunk failed", metadata: ["reason": "\(reason)", "now": "\(status.map(\.rawValue) ?? "lease lost")"])
            }
        }
    }

    /// Keeps `yield` behind while an earlier chunk of `chunk`'s title is being encoded on this machine (by a
    /// worker whose name starts with this host's), looking every half second until cancelled. Workers on other
    /// machines do not take this machine's CPU, so they are not waited for; a catalog that cannot be read
    /// lets the chunk go on.
    private func watchFrontier(of chunk: ChunkLease, _ yield: FrontierYield) async throws {
        let host = WorkerIdentity.host(of: chunk.worker)
        while true {
            let chunks = try? await library.catalog.chunks(of: chunk.chunk.mediaID)
            yield.isBehind = chunks?.contains { earlier in
                earlier.index < chunk.chunk.index && earlier.status == .processing
                    && earlier.worker.map(WorkerIdentity.host(of:)) == host
            } ?? false
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Claims a chunk of any title and encodes it; false when no chunk is waiting.
    func encodeAnyChunk(worker: WorkerIdentity) async -> Bool {
        let catalog = library.catalog
        do {
            guard let chunk = try await catalog.claimNextChunk(worker: worker.id, lease: lease, mediaID: nil) else { return false }
            guard let item = try await catalog.media(id: chunk.chunk.mediaID) else { return true }
            await encode(chunk, input: item.sourcePath, logger: logger)
            return true
        } catch {
            logger.error("claiming a chunk failed", metadata: ["error": "\(error)"])
            return false
        }
    }
}
