import Foundation
import Logging
import VODCatalog
import VODEngine

extension TranscodeService {
    /// Transcodes one claimed item and records the outcome: ready, failed with a reason, or back in the
    /// queue when the server is shutting down. A job cancelled because its item was deleted leaves nothing.
    func transcode(_ job: MediaItem, worker: Int) async {
        var logger = self.logger
        logger[metadataKey: "media.id"] = "\(job.id)"
        logger[metadataKey: "worker"] = "\(worker)"
        logger.info("transcode started", metadata: ["attempt": "\(job.attempts)", "source": "\(job.sourceFileName)"])
        let catalog = library.catalog
        let output = library.outputFolder(for: job.id)
        let reporter = ProgressReporter()
        let started = ContinuousClock.now
        let limit = timeLimit.limit(forSourceDuration: job.duration)
        do {
            let result = try await withThrowingTaskGroup(of: TranscodeResult?.self) { group in
                group.addTask {
                    await reporter.run(id: job.id, catalog: catalog, interval: progressInterval)
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    throw JobTimedOut(limit: limit)
                }
                group.addTask {
                    try await transcoder.transcode(input: job.sourcePath, outputDirectory: output) { progress in
                        reporter.report(progress.fraction)
                    }
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                throw CancellationError()
            }
            try await finish(job, result: result, output: output, logger: logger)
            logger.info(
                "transcode finished",
                metadata: ["seconds": "\((ContinuousClock.now - started).components.seconds)", "variants": "\(result.variants.map(\.name))"]
            )
        } catch let error where Self.isCancellation(error) {
            await detached { try await catalog.requeue(id: job.id) }
            logger.notice("transcode interrupted; job requeued")
        } catch {
            let reason = Self.reason(for: error)
            await detached { try await catalog.markFailed(id: job.id, reason: reason) }
            logger.error("transcode failed", metadata: ["reason": "\(reason)"])
        }
    }

    private func finish(_ job: MediaItem, result: TranscodeResult, output: String, logger: Logger) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let completed = CompletedTranscode(
            hlsPath: output,
            duration: result.duration,
            variantsJSON: String(decoding: try encoder.encode(result.variants), as: UTF8.self)
        )
        if try await !library.catalog.markReady(id: job.id, result: completed) {
            try? FileManager.default.removeItem(atPath: output)
            logger.notice("item deleted while transcoding; output removed")
        }
    }

    /// Runs a catalog write outside the cancelled task, so that recording the outcome is not itself cancelled.
    private func detached(_ write: @escaping @Sendable () async throws -> Void) async {
        let logger = self.logger
        await Task {
            do { try await write() } catch { logger.error("recording a job outcome failed", metadata: ["error": "\(error)"]) }
        }.value
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
