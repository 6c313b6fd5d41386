import GRDB

extension WebhookDelivery: FetchableRecord {
    /// A delivery joined with its event, as `WebhookDelivery.selectSQL` reads it.
    public init(row: Row) throws {
        let status: String = row["status"]
        let type: String = row["event_type"]
        guard let deliveryStatus = WebhookDeliveryStatus(rawValue: status), let eventType = MediaEventType(rawValue: type) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown delivery status \(status) or event \(type)")
        }
        self.init(
            id: row["id"], url: row["url"],
            event: MediaEvent(id: row["event_id"], type: eventType, mediaID: row["media_id"], itemJSON: row["item"],
                              createdAt: row["event_created_at"]),
            status: deliveryStatus, attempts: row["attempts"], nextAttemptAt: row["next_attempt_at"],
            lastStatusCode: row["last_status"], lastError: row["last_error"], createdAt: row["created_at"],
            updatedAt: row["updated_at"]
        )
    }
}

extension SQLiteCatalog {
    public func scheduleWebhookDeliveries(urls: [String]) async throws -> Int {
        try await writer.write { db in
            let newest = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM events") ?? 0
            var queued = 0
            for url in urls {
                if let cursor = try Int64.fetchOne(db, sql: "SELECT last_event_id FROM webhook_cursors WHERE url = ?", arguments: [url]) {
                    try db.execute(
                        sql: "INSERT INTO webhook_deliveries (url, event_id) SELECT ?, id FROM events WHERE id > ? AND id <= ? ORDER BY id",
                        arguments: [url, cursor, newest]
                    )
                    queued += db.changesCount
                }
                try db.execute(
                    sql: """
                        INSERT INTO webhook_cursors (url, last_event_id) VALUES (?, ?)
                        ON CONFLICT (url) DO UPDATE SET last_event_id = excluded.last_event_id
                        """,
                    arguments: [url, newest]
                )
            }
            return queued
        }
    }

    public func claimWebhookDeliveries(worker: String, lease: Duration, limit: Int) async throws -> [WebhookDelivery] {
        try await writer.write { db in
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    UPDATE webhook_deliveries SET lease_worker = ?, lease_expires_at = \(sqlEpoch) + ?
                    WHERE id IN (
                        SELECT id FROM webhook_deliveries
                        WHERE status = 'pending' AND next_attempt_at <= \(sqlEpoch)
                            AND (lease_expires_at IS NULL OR lease_expires_at < \(sqlEpoch))
                        ORDER BY next_attempt_at, id LIMIT ?
                    )
                    RETURNING id
                    """,
                arguments: [worker, lease.seconds, limit]
            )
            guard !ids.isEmpty else { return [] }
            return try WebhookDelivery.fetchAll(
                db, sql: "\(WebhookDelivery.selectSQL) WHERE webhook_deliveries.id IN (\(ids.map(String.init).joined(separator: ","))) ORDER BY next_attempt_at, webhook_deliveries.id"
            )
        }
    }

    public func recordWebhookAttempt(_ delivery: WebhookDelivery, _ attempt: WebhookAttempt) async throws {
        let (status, delay) = attempt.outcome.row
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = \(sqlEpoch) + ?,
                        last_status = ?, last_error = ?, lease_worker = NULL, lease_expires_at = NULL, updated_at = \(sqlNow)
                    WHERE id = ?
                    """,
                arguments: [status.rawValue, delay, attempt.statusCode, attempt.error, delivery.id]
            )
        }
    }

    public func webhookDeliveries(limit: Int) async throws -> [WebhookDelivery] {
        try await writer.read { db in
            try WebhookDelivery.fetchAll(
                db, sql: "\(WebhookDelivery.selectSQL) ORDER BY webhook_deliveries.updated_at DESC, webhook_deliveries.id DESC LIMIT ?",
                arguments: [limit]
            )
        }
    }
}

extension WebhookAttempt.Outcome {
    /// The status a delivery takes, and the seconds until it is next due.
    public var row: (WebhookDeliveryStatus, Double) {
        switch self {
        case .delivered: (.delivered, 0)
        case .retry(let after): (.pending, after)
        case .failed: (.failed, 0)
        }
    }
}
