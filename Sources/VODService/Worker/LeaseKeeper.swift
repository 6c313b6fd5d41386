import VODCatalog

/// Renews a lease (a title's or a chunk's) every third of its length while the work runs, and throws
/// `LeaseLost` once the lease has passed to another claim, or when it could not be renewed (the catalog
/// unreachable) before it ran out.
struct LeaseKeeper: Sendable {
    let lease: Duration
    /// Extends the lease by `lease`; false when it is no longer this worker's.
    let renew: @Sendable () async throws -> Bool

    /// Keeps the lease of a title's job.
    init(job: JobLease, catalog: any JobQueue, lease: Duration) {
        self.lease = lease
        renew = { try await catalog.renewLease(job, for: lease) }
    }

    /// Keeps the lease of a chunk.
    init(chunk: ChunkLease, catalog: any ChunkQueue, lease: Duration) {
        self.lease = lease
        renew = { try await catalog.renewChunkLease(chunk, for: lease) }
    }

    func run() async throws {
        var renewed = ContinuousClock.now
        while true {
            try await Task.sleep(for: lease / 3)
            do {
                guard try await renew() else { throw LeaseLost() }
                renewed = .now
            } catch is LeaseLost {
                throw LeaseLost()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if ContinuousClock.now - renewed >= lease { throw LeaseLost() }
            }
        }
    }
}

/// The job's lease is no longer this worker's: another worker may be transcoding it.
struct LeaseLost: Error {}
