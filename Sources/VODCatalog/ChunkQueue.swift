/// Chunks: a long title split into stretches that any worker can lease, each fenced by its own token.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol ChunkQueue: Sendable {
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
}
