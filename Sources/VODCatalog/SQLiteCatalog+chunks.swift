import GRDB

extension ChunkJob: FetchableRecord {
    public init(row: Row) throws {
        let status: String = row["status"]
        guard let chunkStatus = ChunkStatus(rawValue: status) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown chunk status \(status)")
        }
        self.init(mediaID: row["media_id"], index: row["idx"], outputPath: row["output_path"], specJSON: row["spec"],
                  status: chunkStatus, attempts: row["attempts"], error: row["error"], leaseToken: row["lease_token"],
                  worker: row["lease_worker"])
    }
}

extension SQLiteCatalog {
    public func addChunks(_ job: JobLease, outputPath: String, specs: [String]) async throws -> Bool {
        try await writer.write { db in
            guard try Int64.fetchOne(
                db, sql: "SELECT id FROM media WHERE id = ? AND status = 'processing' AND lease_token = ?",
                arguments: [job.id, job.token]
            ) != nil else { return false }
            try db.execute(sql: "DELETE FROM chunks WHERE media_id = ?", arguments: [job.id])
            for (index, spec) in specs.enumerated() {
                try db.execute(
                    sql: "INSERT INTO chunks (media_id, idx, output_path, spec) VALUES (?, ?, ?, ?)",
                    arguments: [job.id, index, outputPath, spec]
                )
            }
            return true
        }
    }

    public func claimNextChunk(worker: String, lease: Duration, mediaID: Int64?) async throws -> ChunkLease? {
        try await writer.write { db in
            try ChunkJob.fetchOne(
                db,
                sql: """
                    UPDATE chunks SET status = 'processing', error = NULL, attempts = attempts + 1,
                        lease_token = lease_token + 1, lease_worker = ?1, lease_expires_at = \(sqlEpoch) + ?2,
                        updated_at = \(sqlNow)
                    WHERE (media_id, idx) = (
                        SELECT chunks.media_id, chunks.idx FROM chunks JOIN media ON media.id = chunks.media_id
                        WHERE chunks.status = 'pending' AND media.status = 'processing'
                            AND (?3 IS NULL OR chunks.media_id = ?3)
                        ORDER BY chunks.media_id, chunks.idx LIMIT 1
                    )
                    RETURNING *
                    """,
                arguments: [worker, lease.seconds, mediaID]
            ).map { ChunkLease(chunk: $0, token: $0.leaseToken, worker: worker) }
        }
    }

    public func renewChunkLease(_ chunk: ChunkLease, for lease: Duration) async throws -> Bool {
        try await writeLeased(chunk, "lease_expires_at = \(sqlEpoch) + ?", [lease.seconds]) != nil
    }

    public func markChunkDone(_ chunk: ChunkLease) async throws -> Bool {
        try await writeLeased(
            chunk, "status = 'done', error = NULL, lease_worker = NULL, lease_expires_at = NULL, updated_at = \(sqlNow)", []
        ) != nil
    }

    public func markChunkFailed(_ chunk: ChunkLease, reason: String, maxAttempts: Int) async throws -> ChunkStatus? {
        try await writeLeased(
            chunk,
            """
            status = CASE WHEN attempts < ? THEN 'pending' ELSE 'failed' END, error = ?, lease_worker = NULL,
                lease_expires_at = NULL, updated_at = \(sqlNow)
            """,
            [maxAttempts, reason]
        )?.status
    }

    public func requeueChunk(_ chunk: ChunkLease) async throws {
        _ = try await writeLeased(
            chunk,
            """
            status = 'pending', attempts = max(attempts - 1, 0), lease_worker = NULL, lease_expires_at = NULL,
                updated_at = \(sqlNow)
            """,
            []
        )
    }

    public func chunks(of mediaID: Int64) async throws -> [ChunkJob] {
        try await writer.read { db in
            try ChunkJob.fetchAll(db, sql: "SELECT * FROM chunks WHERE media_id = ? ORDER BY idx", arguments: [mediaID])
        }
    }

    public func reclaimChunkLeases(maxAttempts: Int, deadWorkers: [String]) async throws -> Int {
        try await writer.write { db in
            let dead = deadWorkers.isEmpty ? "" : " OR lease_worker IN (\(databaseQuestionMarks(count: deadWorkers.count)))"
            try db.execute(
                sql: """
                    UPDATE chunks SET status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'pending' END,
                        error = CASE WHEN attempts >= ? THEN '\(ChunkJob.givingUp)' ELSE error END,
                        lease_worker = NULL, lease_expires_at = NULL, updated_at = \(sqlNow)
                    WHERE status = 'processing' AND (lease_expires_at IS NULL OR lease_expires_at < \(sqlEpoch)\(dead))
                    """,
                arguments: [maxAttempts, maxAttempts] + StatementArguments(deadWorkers)
            )
            return db.changesCount
        }
    }

    public func removeChunks(of mediaID: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM chunks WHERE media_id = ?", arguments: [mediaID])
        }
    }

    /// Applies `assignments` to a chunk's row only while `chunk`'s lease is the current one; the row as it
    /// became, nil when the lease is no longer this one.
    private func writeLeased(_ chunk: ChunkLease, _ assignments: String, _ arguments: StatementArguments) async throws -> ChunkJob? {
        try await writer.write { db in
            try ChunkJob.fetchOne(
                db,
                sql: """
                    UPDATE chunks SET \(assignments)
                    WHERE media_id = ? AND idx = ? AND lease_token = ? AND status = 'processing' RETURNING *
                    """,
                arguments: arguments + [chunk.chunk.mediaID, chunk.chunk.index, chunk.token]
            )
        }
    }
}

extension ChunkJob {
    /// The reason a chunk is failed after its last interrupted attempt, in SQL string form; `attempts` is the
    /// column.
    static let givingUp = "The lease on this chunk ran out ' || attempts || ' times (its worker stopped or hung while it ran); giving up"
}
