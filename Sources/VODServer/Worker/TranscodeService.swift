import Foundation
import Logging
import ServiceLifecycle
import VODCatalog
import VODEngine

/// The transcode workers of `vod serve`: a service that claims `pending` items from the catalog and turns
/// them into HLS renditions, `workers` at a time.
///
/// At start it requeues jobs a dead process left `processing` and removes the files it left behind (see
/// `MediaLibrary.removeOrphans`). Each job runs at most its `JobTimeLimit`. On graceful shutdown it cancels the running
/// transcodes and puts their items back in the queue, so the next start finishes them.
public struct TranscodeService: Service {
    let library: MediaLibrary
    let jobs: RunningJobs
    let transcoder: Transcoder
    let workers: Int
    let maxAttempts: Int
    let pollInterval: Duration
    let progressInterval: Duration
    let timeLimit: JobTimeLimit
    /// When this service was made: leftovers last changed before then belong to a dead process.
    let created = Date()
    let logger: Logger

    init(library: MediaLibrary, jobs: RunningJobs, configuration: VODServerConfiguration, logger: Logger) {
        self.library = library
        self.jobs = jobs
        self.transcoder = Transcoder(options: configuration.transcodeOptions)
        self.workers = configuration.workers
        self.maxAttempts = configuration.maxAttempts
        self.pollInterval = .milliseconds(Int(configuration.pollInterval * 1000))
        self.progressInterval = .seconds(1)
        self.timeLimit = configuration.jobTimeLimit
        self.logger = logger
    }

    public func run() async throws {
        let report = try await library.catalog.recoverInterruptedJobs(maxAttempts: maxAttempts)
        if !report.requeued.isEmpty || !report.failed.isEmpty {
            logger.notice(
                "recovered interrupted jobs",
                metadata: ["requeued": "\(report.requeued)", "failed": "\(report.failed)"]
            )
        }
        await removeOrphans()
        guard workers > 0 else {
            // A service that returns early would stop the whole service group, server included.
            try await gracefulShutdown()
            return
        }
        logger.info("transcode workers started", metadata: ["workers": "\(workers)"])
        await withDiscardingTaskGroup { group in
            for worker in 0..<workers {
                group.addTask { await workLoop(worker: worker) }
            }
        }
        logger.info("transcode workers stopped")
    }

    /// Removes what a dead process left in the folders; a failure is logged and does not stop the server.
    private func removeOrphans() async {
        do {
            let orphans = try await library.removeOrphans(changedBefore: created)
            if !orphans.isEmpty {
                logger.notice("removed files a stopped server left behind", metadata: [
                    "staging": "\(orphans.stagingFolders)", "uploads": "\(orphans.partialUploads)",
                    "originals": "\(orphans.originals)", "renditions": "\(orphans.renditions)",
                ])
            }
        } catch {
            logger.error("removing leftover files failed", metadata: ["error": "\(error)"])
        }
    }

    /// Claims and runs jobs until graceful shutdown.
    private func workLoop(worker: Int) async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let job: MediaItem?
                do {
                    job = try await library.catalog.claimNextJob()
                } catch {
                    logger.error("claiming a job failed", metadata: ["error": "\(error)"])
                    job = nil
                }
                guard let job else {
                    try? await Task.sleep(for: pollInterval)
                    continue
                }
                await runJob(job, worker: worker)
            }
        }
    }

    /// Runs one job in its own task so that deleting the item can cancel it.
    private func runJob(_ job: MediaItem, worker: Int) async {
        let task = Task { await transcode(job, worker: worker) }
        jobs.insert(task, for: job.id)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        jobs.remove(job.id)
    }
}
