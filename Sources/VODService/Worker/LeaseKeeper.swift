import Synchronization
import VODCatalog

/// Renews a lease (a title's or a chunk's) every third of its length while the work runs, and throws
/// `LeaseLost` once the lease has passed to another claim, or when it could not be renewed (the catalog
/// unreachable, or a renewal still unanswered) before it ran out.
struct LeaseKeeper: Sendable {
    let lease: Duration
    /// Extends the lease by `lease`; false when it is no longer this worker's.
    let renew: @Sendable () async throws -> Bool

    /// Keeps the lease of a title's job.
    init(job: JobLease, catalog: any JobQueue, lease: Duration) {
        self.init(lease: lease) { try await catalog.renewLease(job, for: lease) }
    }

    /// Keeps the lease of a chunk.
    init(chunk: ChunkLease, catalog: any ChunkQueue, lease: Duration) {
        self.init(lease: lease) { try await catalog.renewChunkLease(chunk, for: lease) }
    }

    init(lease: Duration, renew: @escaping @Sendable () async throws -> Bool) {
        self.lease = lease
        self.renew = renew
    }

    func run() async throws {
        var renewed = ContinuousClock.now
        while true {
            try await Task.sleep(for: lease / 3)
            do {
                // A renewal still unanswered when the lease runs out cannot have kept it.
                guard let kept = try await Self.value(before: renewed + lease, of: renew) else { throw LeaseLost() }
                guard kept else { throw LeaseLost() }
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

    /// `operation`'s result, or nil when `deadline` comes first: the operation is then cancelled and left to end
    /// on its own, never awaited, so a call that hangs cannot hold the caller past the deadline.
    static func value<T: Sendable>(before deadline: ContinuousClock.Instant,
                                   of operation: @escaping @Sendable () async throws -> T) async throws -> T? {
        let waiter = Mutex<CheckedContinuation<T?, any Error>?>(nil)
        let work = Mutex<[Task<Void, Never>]>([])
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                waiter.withLock { $0 = continuation }
                let finish = { @Sendable (result: Result<T?, any Error>) in
                    waiter.withLock { $0.take() }?.resume(with: result)
                    work.withLock { $0 }.forEach { $0.cancel() }
                }
                work.withLock { tasks in
                    tasks.append(Task {
                        do { finish(.success(try await operation())) } catch { finish(.failure(error)) }
                    })
                    tasks.append(Task {
                        try? await Task.sleep(until: deadline)
                        finish(.success(nil))
                    })
                }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
            work.withLock { $0 }.forEach { $0.cancel() }
        }
    }
}

/// The job's lease is no longer this worker's: another worker may be transcoding it.
struct LeaseLost: Error {}
