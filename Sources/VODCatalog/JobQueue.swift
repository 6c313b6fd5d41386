/// The transcode queue of whole titles: claims fenced by a lease, their progress and their outcome.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol JobQueue: Sendable {
    /// Atomically takes the oldest `pending` item for `worker`, marks it `processing`, counts the attempt and
    /// leases it for `lease`; concurrent claims (from any process or machine) never take the same item.
    func claimNextJob(worker: String, lease: Duration) async throws -> JobLease?
    /// Extends a lease to `lease` from now; false when it has passed to another claim or the item is gone.
    func renewLease(_ job: JobLease, for lease: Duration) async throws -> Bool
    /// Stores the progress of a leased job: the fraction of its source decoded, and how far each rung has come
    /// as a JSON array the catalog keeps as given; false when the lease is no longer this one.
    func recordProgress(_ job: JobLease, fraction: Double, rungsJSON: String?) async throws -> Bool
    /// Publishes a leased job's renditions in `hlsPath` while it is still processing (its first segments are
    /// out), recording the first such moment; false when the lease is no longer this one.
    func markPlayable(_ job: JobLease, hlsPath: String) async throws -> Bool
    /// Marks a leased job ready; false when the lease is no longer this one (taken over, or the item deleted),
    /// in which case the result must not be published.
    func markReady(_ job: JobLease, result: CompletedTranscode) async throws -> Bool
    /// Marks a leased job failed with a human-readable reason; false when the lease is no longer this one.
    func markFailed(_ job: JobLease, reason: String) async throws -> Bool
    /// Hands a leased job back to the queue without counting the interrupted attempt (graceful shutdown).
    func requeue(_ job: JobLease) async throws
    /// Puts back in the queue the jobs whose lease ran out, and those leased by `deadWorkers` (processes known to
    /// be gone), failing those already tried `maxAttempts` times.
    func reclaimLeases(maxAttempts: Int, deadWorkers: [String]) async throws -> RecoveryReport
    /// Yields when a job may be waiting (an upload, a retry, a job put back), so that idle workers need not
    /// wait for their next poll; nil where the backend cannot tell other processes, and workers poll.
    func jobSignals() -> AsyncStream<Void>?
}
