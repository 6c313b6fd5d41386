import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func scheduleWebhookDeliveries(urls: [String]) async throws -> Int {
        try await transaction { connection in
            try await connection.query("LOCK TABLE webhook_cursors IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            let newest = try await connection.query("SELECT coalesce(max(id), 0) FROM events", logger: logger).first?.decode(Int64.self) ?? 0
            var queued = 0
            for url in urls {
                let cursor = try await connection.query(
                    "SELECT last_event_id FROM webhook_cursors WHERE url = \(url)", logger: logger
                ).last?.decode(Int64.self)
                if let cursor {
                    queued += try await connection.query(
                        """
                        INSERT INTO webhook_deliveries (url, event_id)
                        SELECT \(url), id FROM events WHERE id > \(cursor) AND id <= \(newest) ORDER BY id RETURNING id
                        """, logger: logger
                    ).count
                }
                try await connection.query(
                    """
                    INSERT INTO webhook_cursors (url, last_event_id) VALUES (\(url), \(newest))
                    ON CONFLICT (url) DO UPDATE SET last_event_id = excluded.last_event_id
                    """, logger: logger
                )
            }
            return queued
        }
    }

    public func claimWebhookDeliveries(worker: String, lease: Duration, limit: Int) async throws -> [WebhookDelivery] {
        let ids = try await fetch(
            """
            UPDATE webhook_deliveries SET lease_worker = \(worker), lease_expires_at = \(unescaped: pgEpoch) + \(lease.seconds)
            WHERE id IN (
                SELECT id FROM webhook_deliveries
                WHERE status = 'pending' AND next_attempt_at <= \(unescaped: pgEpoch)
                    AND (lease_expires_at IS NULL OR lease_expires_at < \(unescaped: pgEpoch))
                ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            )
            RETURNING id
            """, { try $0["id"].decode(Int64.self) }
        )
        guard !ids.isEmpty else { return [] }
        return try await fetch(
            """
            \(unescaped: WebhookDelivery.selectSQL) WHERE webhook_deliveries.id = ANY(\(ids))
            ORDER BY next_attempt_at, webhook_deliveries.id
            """, WebhookDelivery.init(postgres:)
        )
    }

    public func recordWebhookAttempt(_ delivery: WebhookDelivery, _ attempt: WebhookAttempt) async throws {
        let (status, delay) = attempt.outcome.row
        try await available {
            try await client.query(
                """
                UPDATE webhook_deliveries SET status = \(status.rawValue), attempts = attempts + 1,
                    next_attempt_at = \(unescaped: pgEpoch) + \(delay), last_status = \(attempt.statusCode.map(Int64.init)),
                    last_error = \(attempt.error), lease_worker = NULL, lease_expires_at = NULL, updated_at = \(unescaped: pgNow)
                WHERE id = \(delivery.id)
                """, logger: logger
            )
        }
    }

    public func webhookDeliveries(limit: Int) async throws -> [WebhookDelivery] {
        try await fetch(
            """
            \(unescaped: WebhookDelivery.selectSQL)
            ORDER BY webhook_deliveries.updated_at DESC, webhook_deliveries.id DESC LIMIT \(limit)
            """, WebhookDelivery.init(postgres:)
        )
    }
}

extension WebhookDelivery {
    /// A `webhook_deliveries` row joined with its event, as `WebhookDelivery.selectSQL` reads it.
    init(postgres row: PostgresRandomAccessRow) throws {
        let status = try row["status"].decode(String.self)
        let type = try row["event_type"].decode(String.self)
        guard let deliveryStatus = WebhookDeliveryStatus(rawValue: status) else { throw UnknownStatus(value: status) }
        guard let eventType = MediaEventType(rawValue: type) else { throw UnknownStatus(value: type) }
        self.init(
            id: try row["id"].decode(Int64.self), url: try row["url"].decode(String.self),
            event: MediaEvent(id: try row["event_id"].decode(Int64.self), type: eventType,
                              mediaID: try row["media_id"].decode(Int64.self), itemJSON: try row["item"].decode(String.self),
                              createdAt: try row["event_created_at"].decode(String.self)),
            status: deliveryStatus, attempts: Int(try row["attempts"].decode(Int64.self)),
            nextAttemptAt: try row["next_attempt_at"].decode(Double.self),
            lastStatusCode: try row["last_status"].decode(Int64?.self).map(Int.init), lastError: try row["last_error"].decode(String?.self),
            createdAt: try row["created_at"].decode(String.self), updatedAt: try row["updated_at"].decode(String.self)
        )
    }
}
