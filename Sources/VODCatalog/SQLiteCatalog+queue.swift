import GRDB

extension SQLiteCatalog {
    public func claimNextJob() async throws -> MediaItem? {
        try await writer.write { db in
            try MediaItem.fetchOne(
                db,
                sql: """
                    UPDATE media SET status = 'processing', progress = 0, error = NULL, attempts = attempts + 1,
                        updated_at = \(sqlNow)
                    WHERE id = (SELECT id FROM media WHERE status = 'pending' ORDER BY id LIMIT 1)
                    RETURNING *
                    """
            )
        }
    }

    public func recordProgress(id: Int64, fraction: Double) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE media SET progress = ?, updated_at = \(sqlNow) WHERE id = ? AND status = 'processing'",
                arguments: [min(max(fraction, 0), 1), id]
            )
        }
    }

    public func markReady(id: Int64, result: CompletedTranscode) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE media SET status = 'ready', progress = 1, error = NULL, hls_path = ?, duration = ?,
                        variants = ?, updated_at = \(sqlNow)
                    WHERE id = ? AND status = 'processing'
                    """,
                arguments: [result.hlsPath, result.duration, result.variantsJSON, id]
            )
            return db.changesCount > 0
        }
    }

    public func markFailed(id: Int64, reason: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE media SET status = 'failed', error = ?, updated_at = \(sqlNow)
                    WHERE id = ? AND status = 'processing'
                    """,
                arguments: [reason, id]
            )
        }
    }

    public func requeue(id: Int64) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE media SET status = 'pending', progress = 0, attempts = max(attempts - 1, 0),
                        updated_at = \(sqlNow)
                    WHERE id = ? AND status = 'processing'
                    """,
                arguments: [id]
            )
        }
    }

    public func recoverInterruptedJobs(maxAttempts: Int) async throws -> RecoveryReport {
        try await writer.write { db in
            let failed = try Int64.fetchAll(
                db,
                sql: """
                    UPDATE media SET status = 'failed', updated_at = \(sqlNow),
                        error = 'Transcoding was interrupted ' || attempts || ' times (the server stopped while it ran); giving up'
                    WHERE status = 'processing' AND attempts >= ? RETURNING id
                    """,
                arguments: [maxAttempts]
            )
            let requeued = try Int64.fetchAll(
                db,
                sql: """
                    UPDATE media SET status = 'pending', progress = 0, updated_at = \(sqlNow)
                    WHERE status = 'processing' RETURNING id
                    """
            )
            return RecoveryReport(requeued: requeued.sorted(), failed: failed.sorted())
        }
    }
}
