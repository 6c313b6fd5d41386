/// The storage of media items and of the transcode queue.
///
/// `SQLiteCatalog` is the embedded implementation and `PostgresCatalog` (module `VODPostgres`) the one for
/// several machines; the server, the workers and the `import` command only see this protocol.
public protocol MediaCatalog: Sendable {
    /// Adds a `pending` item.
    func insert(_ media: NewMedia) async throws -> MediaItem
    /// The item with `id`, if any.
    func media(id: Int64) async throws -> MediaItem?
    /// Items newest first, optionally only those with `status`; every one when `limit` is nil.
    func list(status: MediaStatus?, limit: Int?, offset: Int) async throws -> [MediaItem]
    /// How many items have each status, in one query; a status no item has is missing.
    func countByStatus() async throws -> [MediaStatus: Int]
    /// Changes the title and description; `nil` leaves a field as it is.
    func update(id: Int64, title: String?, description: String?) async throws -> MediaItem?
    /// Removes the item and returns it as it was.
    func delete(id: Int64) async throws -> MediaItem?
    /// Moves a failed item back to `pending` with a fresh attempt count.
    /// Throws `CatalogError.notFailed` for an item in any other state.
    func retry(id: Int64) async throws -> MediaItem?

    /// Adds a caption to an item, clearing the other captions' default when it is the default; nil when there
    /// is no such item.
    func insertCaption(_ caption: NewCaption) async throws -> Caption?
    /// The captions of an item, oldest first.
    func captions(mediaID: Int64) async throws -> [Caption]
    /// Removes a caption of an item and returns it as it was; nil when the item has no such caption.
    func deleteCaption(id: Int64, mediaID: Int64) async throws -> Caption?

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

    // Chunks: a long title split into stretches that any worker can lease, each fenced by its own token.
    /// Replaces the chunks of the leased title `job` with `specs` (chunk i gets specs[i]), all pending, writing
    /// into `outputPath`; false (and nothing written) when the title's lease is no longer this one.
    func addChunks(_ job: JobLease, outputPath: String, specs: [String]) async throws -> Bool
    /// Atomically leases the pending chunk with the lowest (media id, index) whose title is still `processing`,
    /// for `lease`; with `mediaID`, only that title's chunks. Counts the attempt, takes the next token.
    /// Concurrent claims never take the same chunk.
    func claimNextChunk(worker: String, lease: Duration, mediaID: Int64?) async throws -> ChunkLease?
    /// Extends a chunk's lease; false when it passed to another claim, is no longer processing, or is gone.
    func renewChunkLease(_ chunk: ChunkLease, for lease: Duration) async throws -> Bool
    /// Marks a leased chunk done; false when the lease is no longer this one.
    func markChunkDone(_ chunk: ChunkLease) async throws -> Bool
    /// Records a failed attempt of a leased chunk: back to pending while it has been tried fewer than
    /// `maxAttempts` times, else failed with `reason`. Returns the chunk's new status, nil when the lease is no
    /// longer this one.
    func markChunkFailed(_ chunk: ChunkLease, reason: String, maxAttempts: Int) async throws -> ChunkStatus?
    /// Hands a leased chunk back without counting the attempt (graceful shutdown).
    func requeueChunk(_ chunk: ChunkLease) async throws
    /// The chunks of a title, by index.
    func chunks(of mediaID: Int64) async throws -> [ChunkJob]
    /// Puts back the processing chunks whose lease ran out or whose worker is in `deadWorkers`, failing those
    /// tried `maxAttempts` times (with a reason saying the lease ran out); returns how many changed.
    func reclaimChunkLeases(maxAttempts: Int, deadWorkers: [String]) async throws -> Int
    /// Removes every chunk of a title.
    func removeChunks(of mediaID: Int64) async throws

    // Events: an append-only log of what happened to items, read by status streams and webhooks.
    /// Records that `type` happened to `item` (as it is right after) and returns the entry; ids grow in commit
    /// order.
    func appendEvent(_ type: MediaEventType, item: MediaItem) async throws -> MediaEvent
    /// The events after `id`, oldest first, at most `limit`; with `mediaID`, only that item's.
    func events(after id: Int64, mediaID: Int64?, limit: Int) async throws -> [MediaEvent]
    /// The id of the newest event, 0 when there is none.
    func lastEventID() async throws -> Int64
    /// Removes the events older than `seconds` and the deliveries done or given up on as old; returns how many
    /// events went.
    func pruneEvents(olderThan seconds: Double) async throws -> Int

    // Webhooks: the outbox of deliveries, one per event and URL.
    /// Queues a delivery to each of `urls` of every event after the last one queued for it, in one
    /// transaction; a URL seen for the first time starts after the newest event. Returns how many were queued.
    func scheduleWebhookDeliveries(urls: [String]) async throws -> Int
    /// Leases up to `limit` pending deliveries that are due, oldest first, for `lease`; concurrent claims never
    /// take the same delivery.
    func claimWebhookDeliveries(worker: String, lease: Duration, limit: Int) async throws -> [WebhookDelivery]
    /// Records an attempt of a claimed delivery and releases its lease.
    func recordWebhookAttempt(_ delivery: WebhookDelivery, _ attempt: WebhookAttempt) async throws
    /// The most recently changed deliveries, newest first.
    func webhookDeliveries(limit: Int) async throws -> [WebhookDelivery]

    /// Records that a worker is alive, creating its entry the first time.
    func recordHeartbeat(_ heartbeat: WorkerHeartbeat) async throws
    /// Removes a worker's entry (it stopped gracefully).
    func removeWorker(id: String) async throws
    /// Every worker that reported lately, with its current job and lease.
    func workers() async throws -> [WorkerStatus]
    /// Yields when a job may be waiting (an upload, a retry, a job put back), so that idle workers need not
    /// wait for their next poll; nil where the backend cannot tell other processes, and workers poll.
    func jobSignals() -> AsyncStream<Void>?

    /// The stored original of every item, by id: what the orphan sweep keeps.
    func sourcePaths() async throws -> [Int64: String]
    /// Checks that the storage answers.
    func ping() async throws
}
