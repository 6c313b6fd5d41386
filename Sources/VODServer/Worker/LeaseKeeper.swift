import VODCatalog

/// Renews a job's lease every third of its length while the job runs, and throws `LeaseLost` once the lease
/// has passed to another claim, or when it could not be renewed (the catalog unreachable) before it ran out.
struct LeaseKeeper: Sendable {
    let job: JobLease
    let catalog: any MediaCatalog
    let lease: Duration

    func run() async throws {
        var renewed = ContinuousClock.now
        while true {
            try await Task.sleep(for: lease / 3)
            do {
                guard try await catalog.renewLease(job, for: lease) else { throw LeaseLost() }
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
