import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func claimNextJob(worker: String, lease: Duration) async throws -> JobLease? {
        try await fetch(
            """
            UPDATE media SET status = 'processing', progress = 0, error = NULL, attempts = attempts + 1,
                lease_token = lease_token + 1, lease_worker = \(worker),
                lease_expires_at = \(unescaped: pgEpoch) + \(lease.seconds), started_at = \(unescaped: pgEpoch),
                published_at = NULL, processing_seconds = NULL, hls_path = NULL, rung_progress = NULL,
                updated_at = \(unescaped: pgNow)
            WHERE id = (SELECT id FROM media WHERE status = 'pending' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING *
            """, MediaItem.init(postgres:)
        ).first.map { JobLease(item: $0, token: $0.leaseToken, worker: worker) }
    }

    public func renewLease(_ job: JobLease, for lease: Duration) async throws -> Bool {
        try await updateLeased(job, "lease_expires_at = \(unescaped: pgEpoch) + \(lease.seconds)")
    }

    public func recordProgress(_ job: JobLease, fraction: Double, rungsJSON: String?) async throws -> Bool {
        try await updateLeased(
            job, "progress = \(min(max(fraction, 0), 1)), rung_progress = \(rungsJSON), updated_at = \(unescaped: pgNow)"
        )
    }

    public func markPlayable(_ job: JobLease, hlsPath: String) async throws -> Bool {
        try await updateLeased(
            job, "hls_path = \(hlsPath), published_at = coalesce(published_at, \(unescaped: pgNow)), updated_at = \(unescaped: pgNow)"
        )
    }

    public func markReady(_ job: JobLease, result: CompletedTranscode) async throws -> Bool {
        try await updateLeased(
            job,
            """
            status = 'ready', progress = 1, error = NULL, hls_path = \(result.hlsPath), duration = \(result.duration),
                variants = \(result.variantsJSON), tracks = coalesce(\(result.tracksJSON), tracks), published_at = coalesce(published_at, \(unescaped: pgNow)),
                processing_seconds = \(unescaped: pgEpoch) - started_at, lease_worker = NULL, lease_expires_at = NULL,
                updated_at = \(unescaped: pgNow)
            """
        )
    }

    public func markFailed(_ job: JobLease, reason: String) async throws -> Bool {
        try await updateLeased(
            job,
            """
            status = 'failed', error = \(reason), hls_path = NULL, published_at = NULL,
                processing_seconds = \(unescaped: pgEpoch) - started_at, lease_worker = NULL, lease_expires_at = NULL,
                updated_at = \(unescaped: pgNow)
            """
        )
    }

    public func requeue(_ job: JobLease) async throws {
        if try await updateLeased(
            job,
            """
            status = 'pending', progress = 0, attempts = greatest(attempts - 1, 0), lease_worker = NULL,
                lease_expires_at = NULL, updated_at = \(unescaped: pgNow)
            """
        ) {
            try await notifyWorkers()
        }
    }

    public func reclaimLeases(maxAttempts: Int, deadWorkers: [String]) async throws -> RecoveryReport {
        let report = try await transaction { connection in
            let lapsed = """
                status = 'processing' AND (lease_expires_at IS NULL OR lease_expires_at < \(pgEpoch) \
                OR lease_worker = ANY($1))
                """
            var bindings = PostgresBindings()
            bindings.append(deadWorkers)
            var expired: [ExpiredLease] = []
            let locked = PostgresQuery(unsafeSQL: "SELECT id, lease_token FROM media WHERE \(lapsed) ORDER BY id FOR UPDATE", binds: bindings)
            for row in try await connection.query(locked, logger: logger) {
                let (id, token) = try row.decode((Int64, Int64).self)
                expired.append(ExpiredLease(id: id, token: token))
            }
            var failBindings = bindings
            failBindings.append(Int64(maxAttempts))
            let failing = PostgresQuery(unsafeSQL: """
                UPDATE media SET status = 'failed', lease_worker = NULL, lease_expires_at = NULL, updated_at = \(pgNow),
                    error = 'Transcoding was interrupted ' || attempts || ' times (its worker stopped or lost its lease while it ran); giving up'
                WHERE \(lapsed) AND attempts >= $2 RETURNING id
                """, binds: failBindings)
            let failed = try await connection.query(failing, logger: logger).map { try $0.decode(Int64.self) }
            let requeueing = PostgresQuery(unsafeSQL: """
                UPDATE media SET status = 'pending', progress = 0, lease_worker = NULL, lease_expires_at = NULL,
                    updated_at = \(pgNow)
                WHERE \(lapsed) RETURNING id
                """, binds: bindings)
            let requeued = try await connection.query(requeueing, logger: logger).map { try $0.decode(Int64.self) }
            return RecoveryReport(requeued: requeued.sorted(), failed: failed.sorted(), expired: expired)
        }
        if !report.requeued.isEmpty { try await notifyWorkers() }
        return report
    }

    /// Applies `assignments` to a job's row only while `job`'s lease is the current one.
    private func updateLeased(_ job: JobLease, _ assignments: PostgresQuery) async throws -> Bool {
        var sql = "UPDATE media SET " + assignments.sql
        var bindings = assignments.binds
        bindings.append(job.id)
        bindings.append(job.token)
        sql += " WHERE id = $\(bindings.count - 1) AND status = 'processing' AND lease_token = $\(bindings.count) RETURNING id"
        let rows = try await available { try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).collect() }
        return !rows.isEmpty
    }
}
