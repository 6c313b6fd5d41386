import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func recordHeartbeat(_ heartbeat: WorkerHeartbeat) async throws {
        try await available { try await client.query(
            """
            INSERT INTO workers (id, host, pid, jobs_done) VALUES (\(heartbeat.id), \(heartbeat.host), \(Int64(heartbeat.pid)),
                \(Int64(heartbeat.jobsDone)))
            ON CONFLICT (id) DO UPDATE SET jobs_done = excluded.jobs_done, heartbeat_at = \(unescaped: pgNow)
            """, logger: logger) }
    }

    public func removeWorker(id: String) async throws {
        try await available { try await client.query("DELETE FROM workers WHERE id = \(id)", logger: logger) }
    }

    public func workers() async throws -> [WorkerStatus] {
        try await fetch(
            """
            SELECT workers.*, media.id AS current_job,
                to_char(to_timestamp(media.lease_expires_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS lease_expires
            FROM workers LEFT JOIN media ON media.lease_worker = workers.id AND media.status = 'processing'
            ORDER BY workers.started_at, workers.id
            """
        ) { row in
            WorkerStatus(
                id: try row["id"].decode(String.self), host: try row["host"].decode(String.self),
                pid: Int(try row["pid"].decode(Int64.self)), currentJob: try row["current_job"].decode(Int64?.self),
                leaseExpiresAt: try row["lease_expires"].decode(String?.self), heartbeatAt: try row["heartbeat_at"].decode(String.self),
                startedAt: try row["started_at"].decode(String.self), jobsDone: Int(try row["jobs_done"].decode(Int64.self))
            )
        }
    }
}
