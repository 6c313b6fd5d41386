import GRDB

extension SQLiteCatalog {
    public func recordHeartbeat(_ heartbeat: WorkerHeartbeat) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO workers (id, host, pid, jobs_done) VALUES (?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET jobs_done = excluded.jobs_done, heartbeat_at = \(sqlNow)
                    """,
                arguments: [heartbeat.id, heartbeat.host, heartbeat.pid, heartbeat.jobsDone]
            )
        }
    }

    public func removeWorker(id: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM workers WHERE id = ?", arguments: [id])
        }
    }

    /// SQLite cannot wake other processes: workers poll.
    public func jobSignals() -> AsyncStream<Void>? { nil }

    public func workers() async throws -> [WorkerStatus] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT workers.*, media.id AS current_job,
                        strftime('%Y-%m-%dT%H:%M:%fZ', media.lease_expires_at, 'unixepoch') AS lease_expires
                    FROM workers LEFT JOIN media ON media.lease_worker = workers.id AND media.status = 'processing'
                    ORDER BY workers.started_at, workers.id
                    """
            ).map { row in
                WorkerStatus(id: row["id"], host: row["host"], pid: row["pid"], currentJob: row["current_job"],
                             leaseExpiresAt: row["lease_expires"], heartbeatAt: row["heartbeat_at"],
                             startedAt: row["started_at"], jobsDone: row["jobs_done"])
            }
        }
    }
}
