import Foundation
import Logging
import ServiceLifecycle
import VODCatalog
import VODEngine

/// The transcode workers of `vod serve` and `vod worker`: a service that claims `pending` items from the
/// catalog under a lease and turns them into HLS renditions, `workers` at a time.
///
/// Any number of processes, on any number of machines sharing the catalog and the folders, may run it. A
/// worker renews its lease while it works; a job whose lease runs out (its worker killed, hung or cut off) goes
/// back to the queue with the attempt counted, and its late output is discarded (see `JobLease`). At start it
/// also takes back at once the jobs of dead processes of its own host, and removes the files they left (see
/// `MediaLibrary.removeOrphans`). Each job runs at most its `JobTimeLimit`. On graceful shutdown it cancels the
/// running transcodes and puts their items back in the queue.
public struct TranscodeService: Service {
    let library: MediaLibrary
    let jobs: RunningJobs
    let transcoder: Transcoder
    let workers: Int
    let maxAttempts: Int
    let pollInterval: Duration
    let progressInterval: Duration
    let timeLimit: JobTimeLimit
    let lease: Duration
    /// Which titles are split into chunks.
    let split: SplitPolicy
    /// Writes a finished title's stills.
    let stillsWriter: @Sendable (URL, Double, CancellationFlag) throws -> StillsManifest?
    /// Names this process's work loops apart from those of a dead process that had the same pid.
    let processTag = WorkerIdentity.processTag()
    /// Idle loops sleep here until a job may be waiting.
    let wakeups = JobWakeups()
    /// When this service was made: leftovers last changed before then belong to a dead process.
    let created = Date()
    /// Where jobs started, done and failed, and the speed of finished ones, are counted.
    let metrics: any TranscodeMetrics
    let logger: Logger

    /// Workers that take `library`'s jobs, `workers` at a time, each encoded with `transcodeOptions`; `jobs` lists
    /// the running ones. An idle worker looks for a job every `pollInterval` seconds; a job gets `maxAttempts`
    /// interrupted attempts, each under a lease of `lease`, and runs at most its `timeLimit`.
    package init(
        library: MediaLibrary, jobs: RunningJobs, transcodeOptions: TranscodeOptions, workers: Int, maxAttempts: Int,
        pollInterval: Double, timeLimit: JobTimeLimit, lease: Duration, split: SplitPolicy,
        stillsWriter: @escaping @Sendable (URL, Double, CancellationFlag) throws -> StillsManifest?,
        metrics: any TranscodeMetrics, logger: Logger
    ) {
        self.library = library
        self.jobs = jobs
        self.metrics = metrics
        self.transcoder = Transcoder(options: transcodeOptions)
        self.workers = workers
        self.maxAttempts = maxAttempts
        self.pollInterval = .milliseconds(Int(pollInterval * 1000))
        self.progressInterval = .seconds(1)
        self.timeLimit = timeLimit
        self.lease = lease
        self.split = split
        self.stillsWriter = stillsWriter
        self.logger = logger
    }

    public func run() async throws {
        await reclaimLeases()
        await removeOrphans()
        guard workers > 0 else {
            // A service that returns early would stop the whole service group, server included.
            try await gracefulShutdown()
            return
        }
        logger.info("transcode workers started", metadata: ["workers": "\(workers)"])
        await withDiscardingTaskGroup { group in
            if let signals = library.catalog.jobSignals() {
                group.addTask {
                    await cancelWhenGracefulShutdown {
                        for await _ in signals { wakeups.wakeAll() }
                    }
                }
            }
            for slot in 0..<workers {
                group.addTask { await workLoop(WorkerIdentity(slot: slot, process: processTag)) }
            }
        }
        logger.info("transcode workers stopped")
    }

    /// Takes back the jobs whose lease ran out, and those of dead processes of this host, and removes their
    /// unfinished output; a failure is logged and retried at the next call.
    func reclaimLeases() async {
        let catalog = library.catalog
        do {
            let dead = try await catalog.workers().filter { WorkerIdentity.isDeadLocalProcess(host: $0.host, pid: $0.pid) }.map(\.id)
            let report = try await catalog.reclaimLeases(maxAttempts: maxAttempts, deadWorkers: dead)
            let chunks = try await catalog.reclaimChunkLeases(maxAttempts: maxAttempts, deadWorkers: dead)
            for worker in dead { try await catalog.removeWorker(id: worker) }
            library.removeOutput(of: report.expired)
            for id in report.failed { await library.events.record(.failed, id: id) }
            if !report.isEmpty || chunks > 0 {
                logger.notice("took back jobs whose worker stopped", metadata: [
                    "requeued": "\(report.requeued)", "failed": "\(report.failed)", "chunks": "\(chunks)",
                ])
            }
        } catch {
            logger.error("taking back expired leases failed", metadata: ["error": "\(error)"])
        }
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

    /// Claims and runs jobs until graceful shutdown, reporting to the catalog's worker list as it goes.
    private func workLoop(_ worker: WorkerIdentity) async {
        let catalog = library.catalog
        await cancelWhenGracefulShutdown {
            var jobsDone = 0
            var lastReclaim = ContinuousClock.now
            while !Task.isCancelled {
                let job: JobLease?
                do {
                    try await catalog.recordHeartbeat(WorkerHeartbeat(id: worker.id, host: worker.host, pid: worker.pid, jobsDone: jobsDone))
                    job = try await catalog.claimNextJob(worker: worker.id, lease: lease)
                } catch {
                    logger.error("claiming a job failed", metadata: ["error": "\(error)"])
                    job = nil
                }
                guard let job else {
                    if await encodeAnyChunk(worker: worker) { continue }
                    if ContinuousClock.now - lastReclaim > min(lease / 3, .seconds(5)) {
                        await reclaimLeases()
                        lastReclaim = .now
                    }
                    await wakeups.sleep(upTo: pollInterval)
                    continue
                }
                await runJob(job, worker: worker)
                jobsDone += 1
            }
        }
        await detached { try await catalog.removeWorker(id: worker.id) }
    }

    /// Runs one job in its own task so that deleting the item can cancel it.
    private func runJob(_ job: JobLease, worker: WorkerIdentity) async {
        let task = Task { await transcode(job, worker: worker) }
        jobs.insert(task, for: job.id)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        jobs.remove(job.id)
    }

    /// Runs a catalog write outside the cancelled task, so that recording an outcome is not itself cancelled.
    func detached(_ write: @escaping @Sendable () async throws -> Void) async {
        let logger = self.logger
        await Task {
            do { try await write() } catch { logger.error("recording a job outcome failed", metadata: ["error": "\(error)"]) }
        }.value
    }
}

extension TranscodeService {
    /// The transcoder of `item`: the worker's settings, in the segment format stored with the item.
    func transcoder(for item: MediaItem) -> Transcoder {
        var transcoder = transcoder
        transcoder.options.segmentFormat = item.segmentFormat
        return transcoder
    }
}
