import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func addChunks(_ job: JobLease, outputPath: String, specs: [String]) async throws -> Bool {
        let added = try await transaction { connection in
            let leased = try await connection.query(
                "SELECT id FROM media WHERE id = \(job.id) AND status = 'processing' AND lease_token = \(job.token) FOR SHARE",
                logger: logger
            )
            guard !leased.isEmpty else { return false }
            try await connection.query("DELETE FROM chunks WHERE media_id = \(job.id)", logger: logger)
            try await connection.query(
                """
                INSERT INTO chunks (media_id, idx, output_path, spec)
                SELECT \(job.id), ordinality - 1, \(outputPath), spec FROM unnest(\(specs)::text[]) WITH ORDINALITY AS specs (spec, ordinality)
                """, logger: logger
            )
            return true
        }
        if added && !specs.isEmpty { try await notifyWorkers() }
        return added
    }

    public func claimNextChunk(worker: String, lease: Duration, mediaID: Int64?) async throws -> ChunkLease? {
        try await fetch(
            """
            UPDATE chunks SET status = 'processing', error = NULL, attempts = attempts + 1,
                lease_token = lease_token + 1, lease_worker = \(worker),
                lease_expires_at = \(unescaped: pgEpoch) + \(lease.seconds), updated_at = \(unescaped: pgNow)
            WHERE (media_id, idx) = (
                SELECT chunks.media_id, chunks.idx FROM chunks JOIN media ON media.id = chunks.media_id
                WHERE chunks.status = 'pending' AND media.status = 'processing'
                    AND (\(mediaID)::bigint IS NULL OR chunks.media_id = \(mediaID))
                ORDER BY chunks.media_id, chunks.idx LIMIT 1 FOR UPDATE OF chunks SKIP LOCKED
            )
            RETURNING *
            """, ChunkJob.init(postgres:)
        ).first.map { ChunkLease(chunk: $0, token: $0.leaseToken, worker: worker) }
    }

    public func renewChunkLease(_ chunk: ChunkLease, for lease: Duration) async throws -> Bool {
        try await updateLeased(chunk, "lease_expires_at = \(unescaped: pgEpoch) + \(lease.seconds)") != nil
    }

    public func markChunkDone(_ chunk: ChunkLease) async throws -> Bool {
        try await updateLeased(
            chunk, "status = 'done', error = NULL, lease_worker = NULL, lease_expires_at = NULL, updated_at = \(unescaped: pgNow)"
        ) != nil
    }

    public func markChunkFailed(_ chunk: ChunkLease, reason: String, maxAttempts: Int) async throws -> ChunkStatus? {
        let status = try await updateLeased(
            chunk,
            """
            status = CASE WHEN attempts < \(maxAttempts) THEN 'pending' ELSE 'failed' END, error = \(reason),
                lease_worker = NULL, lease_expires_at = NULL, updated_at = \(unescaped: pgNow)
            """
        )?.status
        if status == .pending { try await notifyWorkers() }
        return status
    }

    public func requeueChunk(_ chunk: ChunkLease) async throws {
        if try await updateLeased(
            chunk,
            """
            status = 'pending', attempts = greatest(attempts - 1, 0), lease_worker = NULL, lease_expires_at = NULL,
                updated_at = \(unescaped: pgNow)
            """
        ) != nil {
            try await notifyWorkers()
        }
    }

    public func chunks(of mediaID: Int64) async throws -> [ChunkJob] {
        try await fetch("SELECT * FROM chunks WHERE media_id = \(mediaID) ORDER BY idx", ChunkJob.init(postgres:))
    }

    public func reclaimChunkLeases(maxAttempts: Int, deadWorkers: [String]) async throws -> Int {
        let statuses = try await fetch(
            """
            UPDATE chunks SET status = CASE WHEN attempts >= \(maxAttempts) THEN 'failed' ELSE 'pending' END,
                error = CASE WHEN attempts >= \(maxAttempts)
                    THEN 'The lease on this chunk ran out ' || attempts || ' times (its worker stopped or hung while it ran); giving up'
                    ELSE error END,
                lease_worker = NULL, lease_expires_at = NULL, updated_at = \(unescaped: pgNow)
            WHERE status = 'processing'
                AND (lease_expires_at IS NULL OR lease_expires_at < \(unescaped: pgEpoch) OR lease_worker = ANY(\(deadWorkers)))
            RETURNING status
            """, { try $0["status"].decode(String.self) }
        )
        if statuses.contains(ChunkStatus.pending.rawValue) { try await notifyWorkers() }
        return statuses.count
    }

    public func removeChunks(of mediaID: Int64) async throws {
        try await available { try await client.query("DELETE FROM chunks WHERE media_id = \(mediaID)", logger: logger) }
    }

    /// Applies `assignments` to a chunk's row only while `chunk`'s lease is the current one; the row as it
    /// became, nil when the lease is no longer this one.
    private func updateLeased(_ chunk: ChunkLease, _ assignments: PostgresQuery) async throws -> ChunkJob? {
        var bindings = assignments.binds
        bindings.append(chunk.chunk.mediaID)
        bindings.append(chunk.chunk.index)
        bindings.append(chunk.token)
        let sql = "UPDATE chunks SET " + assignments.sql
            + " WHERE media_id = $\(bindings.count - 2) AND idx = $\(bindings.count - 1) AND lease_token = $\(bindings.count)"
            + " AND status = 'processing' RETURNING *"
        return try await fetch(PostgresQuery(unsafeSQL: sql, binds: bindings), ChunkJob.init(postgres:)).first
    }
}
