import Foundation
import Logging
import VODCatalog
import VODEngine

extension TranscodeService {
    /// Transcodes one leased item and records the outcome: ready, failed with a reason, or back in the queue
    /// when the worker is shutting down. The title is published as it grows, into the lease's own folder: once
    /// the first segment of every rendition is out, the item is playable while still processing. A job whose
    /// lease was lost, or whose item was deleted, publishes nothing: its output is removed.
    func transcode(_ job: JobLease, worker: WorkerIdentity) async {
        var logger = self.logger
        logger[metadataKey: "media.id"] = "\(job.id)"
        logger[metadataKey: "worker"] = "\(worker.id)"
        logger.info("transcode started", metadata: ["attempt": "\(job.item.attempts)", "lease": "\(job.token)", "source": "\(job.item.sourceFileName)"])
        let catalog = library.catalog
        let events = library.events
        let metrics = self.metrics
        metrics.recordTranscodeStarted()
        await events.record(.processing, item: job.item)
        let output = library.outputFolder(for: job.id, generation: job.token)
        let progressWriter = ProgressWriter()
        let jobLogger = logger
        let keeper = LeaseKeeper(job: job, catalog: catalog, lease: lease)
        let started = ContinuousClock.now
        let limit = timeLimit.limit(forSourceDuration: job.item.duration)
        let splitCancellation = CancellationFlag()
        do {
            let result = try await withThrowingTaskGroup(of: TranscodeResult?.self) { group in
                group.addTask {
                    await progressWriter.run(job, catalog: catalog, events: events, interval: progressInterval)
                    return nil
                }
                group.addTask {
                    try await keeper.run()
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    throw JobTimedOut(limit: limit)
                }
                group.addTask {
                    let result: TranscodeResult
                    if let title = try await splitTitle(job, output: output, cancellation: splitCancellation) {
                        result = try await coordinate(title, job: job, output: output, worker: worker, progressWriter: progressWriter,
                                                      cancellation: splitCancellation, logger: jobLogger)
                    } else {
                        result = try await transcoder(for: job.item).transcode(input: job.item.sourcePath, outputDirectory: output, progress: { progress in
                            progressWriter.report(progress)
                        }, onPublish: { publication in
                            guard publication.makesPlayable else { return }
                            Task { await publish(job, output: output, progressWriter: progressWriter, logger: jobLogger) }
                        })
                    }
                    // Under the lease and the time limit, like the transcode: the pictures come from its renditions.
                    await writeStills(result, logger: jobLogger)
                    return result
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                throw CancellationError()
            }
            try await progressWriter.flush(job, catalog: catalog)
            if try await finish(job, result: result, output: output, logger: logger) {
                metrics.recordTranscodeDone(mediaSeconds: result.duration, wall: ContinuousClock.now - started)
            }
            logger.info(
                "transcode finished",
                metadata: ["seconds": "\((ContinuousClock.now - started).components.seconds)", "variants": "\(result.variants.map(\.name))"]
            )
        } catch is LeaseLost {
            try? FileManager.default.removeItem(atPath: output)
            logger.warning("lease lost to another worker; this attempt's output is discarded")
        } catch let error where Self.isCancellation(error) {
            await detached { try await catalog.requeue(job) }
            logger.notice("transcode interrupted; job requeued")
        } catch {
            let reason = Self.reason(for: error)
            await detached {
                if try await catalog.markFailed(job, reason: reason) {
                    metrics.recordTranscodeFailed()
                    await events.record(.failed, id: job.id)
                }
            }
            logger.error("transcode failed", metadata: ["reason": "\(reason)"])
        }
    }

    /// Makes the item playable from the renditions published so far, while its lease is still this job's; the
    /// latest progress is written first, so that the playable item says how far each rung has come.
    func publish(_ job: JobLease, output: String, progressWriter: ProgressWriter, logger: Logger) async {
        do {
            try await progressWriter.flush(job, catalog: library.catalog)
            if try await library.catalog.markPlayable(job, hlsPath: output) {
                logger.info("first segments published; playable")
                await library.events.record(.playable, id: job.id)
            }
        } catch {
            logger.warning("marking the item playable failed", metadata: ["error": "\(error)"])
        }
    }

    /// Publishes the output only while the lease is still this job's: otherwise (lease taken over, item
    /// deleted) the output is removed and the catalog keeps what the current lease holder writes. Returns
    /// whether it was published.
    private func finish(_ job: JobLease, result: TranscodeResult, output: String, logger: Logger) async throws -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let completed = CompletedTranscode(
            hlsPath: output,
            duration: result.duration,
            variantsJSON: String(decoding: try encoder.encode(result.variants), as: UTF8.self),
            tracksJSON: MediaLibrary.storedJSON(result.tracks)
        )
        guard try await library.catalog.markReady(job, result: completed) else {
            try? FileManager.default.removeItem(atPath: output)
            logger.notice("the job's lease ended (item deleted or taken over); output removed")
            return false
        }
        await library.events.record(.ready, id: job.id)
        return true
    }

    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? FFmpegError { return error.isCancellation }
        return false
    }

    /// A reason a person can act on, for the `error` field.
    static func reason(for error: any Error) -> String {
        if let fault = StorageFault(error) { return "Transcoding failed: the renditions could not be written: \(fault)" }
        return switch error {
        case let error as MediaError: "Transcoding failed: \(error.reason)"
        case let error as FFmpegError: "Transcoding failed: \(error.description)"
        default: "Transcoding failed: \(error)"
        }
    }
}
