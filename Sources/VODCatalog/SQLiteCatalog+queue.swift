import Foundation
import GRDB

extension SQLiteCatalog {
    public func claimNextJob(worker: String, lease: Duration) async throws -> JobLease? {
        try await writer.write { db in
            try MediaItem.fetchOne(
                db,
                sql: """
                    UPDATE media SET status = 'processing', progress = 0, error = NULL, attempts = attempts + 1,
                        lease_token = lease_token + 1, lease_worker = ?, lease_expires_at = \(sqlEpoch) + ?,
                        started_at = \(sqlEpoch), published_at = NULL, processing_seconds = NULL, hls_path = NULL,
                        rung_progress = NULL, updated_at = \(sqlNow)
                    WHERE id = (SELECT id FROM media WHERE status = 'pending' ORDER BY id LIMIT 1)
                    RETURNING *
                    """,
                arguments: [worker, lease.seconds]
            ).map { JobLease(item: $0, token: $0.leaseToken, worker: worker) }
        }
    }

    public func renewLease(_ job: JobLease, for lease: Duration) async throws -> Bool {
        try await writeLeased(job, "lease_expires_at = \(sqlEpoch) + ?", [lease.seconds])
    }

    public func recordProgress(_ job: JobLease, fraction: Double, rungsJSON: String?) async throws -> Bool {
        try await writeLeased(job, "progress = ?, rung_progress = ?, updated_at = \(sqlNow)", [min(max(fraction, 0), 1), rungsJSON])
    }

    public func markPlayable(_ job: JobLease, hlsPath: String) async throws -> Bool {
        try await writeLeased(job, "hls_path = ?, published_at = coalesce(published_at, \(sqlNow)), updated_at = \(sqlNow)", [hlsPath])
    }

    public func markReady(_ job: JobLease, result: CompletedTranscode) async throws -> Bool {
        try await writeLeased(
            job,
            """
            status = 'ready', progress = 1, error = NULL, hls_path = ?, duration = ?, variants = ?,
                tracks = coalesce(?, tracks), published_at = coalesce(published_at, \(sqlNow)), processing_seconds = \(sqlEpoch) - started_at,
                lease_worker = NULL, lease_expires_at = NULL, updated_at = \(sqlNow)
            """,
            [result.hlsPath, result.duration, result.variantsJSON, result.tracksJSON]
        )
    }

    public func markFailed(_ job: JobLease, reason: String) async throws -> Bool {
        try await writeLeased(
            job,
            """
            status = 'failed', error = ?, hls_path = NULL, published_at = NULL, processing_seconds = \(sqlEpoch) - started_at,
                lease_worker = NULL, lease_expires_at = NULL, updated_at = \(sqlNow)
            """,
            [reason]
        )
    }

    public func requeue(_ job: JobLease) async throws {
        _ = try await writeLeased(
            job,
            """
            status = 'pending', progress = 0, attempts = max(attempts - 1, 0), lease_worker = NULL,
                lease_expires_at = NULL, updated_at = \(sqlNow)
            """,
            []
        )
    }

    public func reclaimLeases(maxAttempts: Int, deadWorkers: [String]) async throws -> RecoveryReport {
        try await writer.write { db in
            let dead = deadWorkers.isEmpty ? "" : " OR lease_worker IN (\(databaseQuestionMarks(count: deadWorkers.count)))"
            let lapsed = "status = 'processing' AND (lease_expires_at IS NULL OR lease_expires_at < \(sqlEpoch)\(dead))"
            let expired = try Row.fetchAll(db, sql: "SELECT id, lease_token FROM media WHERE \(lapsed) ORDER BY id",
                                           arguments: StatementArguments(deadWorkers))
                .map { ExpiredLease(id: $0["id"], token: $0["lease_token"]) }
            let failed = try Int64.fetchAll(
                db,
                sql: """
                    UPDATE media SET status = 'failed', lease_worker = NULL, lease_expires_at = NULL, updated_at = \(sqlNow),
                        error = '\(RecoveryReport.givingUp)'
                    WHERE \(lapsed) AND attempts >= ? RETURNING id
                    """,
                arguments: StatementArguments(deadWorkers) + [maxAttempts]
            )
            let requeued = try Int64.fetchAll(
                db,
                sql: """
                    UPDATE media SET status = 'pending', progress = 0, lease_worker = NULL, lease_expires_at = NULL,
                        updated_at = \(sqlNow)
                    WHERE \(lapsed) RETURNING id
                    """,
                arguments: StatementArguments(deadWorkers)
            )
            return RecoveryReport(requeued: requeued.sorted(), failed: failed.sorted(), expired: expired)
        }
    }

    /// Applies `assignments` to a job's row only while `job`'s lease is the current one.
    private func writeLeased(_ job: JobLease, _ assignments: String, _ arguments: StatementArguments) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE media SET \(assignments) WHERE id = ? AND status = 'processing' AND lease_token = ?",
                arguments: arguments + [job.id, job.token]
            )
            return db.changesCount > 0
        }
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension RecoveryReport {
    /// The reason a job is failed after its last interrupted attempt, in SQL string form; `attempts` is the
    /// column.
    static let givingUp = "Transcoding was interrupted ' || attempts || ' times (its worker stopped or lost its lease while it ran); giving up"
}

/// SQL for the current time in Unix seconds, with fractions.
let sqlEpoch = "((julianday('now') - 2440587.5) * 86400.0)"
