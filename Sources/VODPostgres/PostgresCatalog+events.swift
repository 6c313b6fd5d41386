import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func appendEvent(_ type: MediaEventType, item: MediaItem) async throws -> MediaEvent {
        let itemJSON = try MediaEvent.encode(item)
        return try await transaction { connection in
            // Appends take turns, so that ids commit in order and a reader never skips one committed late.
            try await connection.query("LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE", logger: logger)
            let rows = try await connection.query(
                "INSERT INTO events (type, media_id, item) VALUES (\(type.rawValue), \(item.id), \(itemJSON)) RETURNING *",
                logger: logger
            )
            return try MediaEvent(postgres: rows[0].makeRandomAccess())
        }
    }

    public func events(after id: Int64, mediaID: Int64?, limit: Int) async throws -> [MediaEvent] {
        try await fetch(
            """
            SELECT * FROM events WHERE id > \(id) AND (\(mediaID)::bigint IS NULL OR media_id = \(mediaID))
            ORDER BY id LIMIT \(limit)
            """, MediaEvent.init(postgres:)
        )
    }

    public func lastEventID() async throws -> Int64 {
        try await fetch("SELECT coalesce(max(id), 0) AS id FROM events", { try $0["id"].decode(Int64.self) }).first ?? 0
    }

    public func pruneEvents(olderThan seconds: Double) async throws -> Int {
        try await fetch(
            """
            DELETE FROM events WHERE created_epoch < \(unescaped: pgEpoch) - \(seconds)
                AND id NOT IN (SELECT event_id FROM webhook_deliveries WHERE status = 'pending')
            RETURNING id
            """, { try $0["id"].decode(Int64.self) }
        ).count
    }
}

extension MediaEvent {
    /// An `events` row.
    init(postgres row: PostgresRandomAccessRow) throws {
        let type = try row["type"].decode(String.self)
        guard let eventType = MediaEventType(rawValue: type) else { throw UnknownStatus(value: type) }
        self.init(id: try row["id"].decode(Int64.self), type: eventType, mediaID: try row["media_id"].decode(Int64.self),
                  itemJSON: try row["item"].decode(String.self), createdAt: try row["created_at"].decode(String.self))
    }
}
