/// The storage of media items and of the transcode queue.
///
/// `SQLiteCatalog` is the embedded implementation; the server and the `import` command only see this protocol.
public protocol MediaCatalog: Sendable {
    /// Adds a `pending` item.
    func insert(_ media: NewMedia) async throws -> MediaItem
    /// The item with `id`, if any.
    func media(id: Int64) async throws -> MediaItem?
    /// Items newest first, optionally only those with `status`; every one when `limit` is nil.
    func list(status: MediaStatus?, limit: Int?, offset: Int) async throws -> [MediaItem]
    /// Changes the title and description; `nil` leaves a field as it is.
    func update(id: Int64, title: String?, description: String?) async throws -> MediaItem?
    /// Removes the item and returns it as it was.
    func delete(id: Int64) async throws -> MediaItem?
    /// Moves a failed item back to `pending` with a fresh attempt count.
    /// Throws `CatalogError.notFailed` for an item in any other state.
    func retry(id: Int64) async throws -> MediaItem?

    /// Atomically takes the oldest `pending` item, marks it `processing` and counts the attempt.
    func claimNextJob() async throws -> MediaItem?
    /// Stores the progress of a `processing` item.
    func recordProgress(id: Int64, fraction: Double) async throws
    /// Marks a `processing` item ready; returns false when it is no longer processing (deleted meanwhile).
    func markReady(id: Int64, result: CompletedTranscode) async throws -> Bool
    /// Marks a `processing` item failed with a human-readable reason.
    func markFailed(id: Int64, reason: String) async throws
    /// Puts a `processing` item back in the queue without counting the interrupted attempt.
    func requeue(id: Int64) async throws
    /// Requeues items left `processing` by a process that died, failing those interrupted `maxAttempts` times.
    func recoverInterruptedJobs(maxAttempts: Int) async throws -> RecoveryReport
    /// The stored original of every item, by id: what the orphan sweep keeps.
    func sourcePaths() async throws -> [Int64: String]
    /// Checks that the storage answers.
    func ping() async throws
}
