import GRDB

extension MediaEvent: FetchableRecord {
    public init(row: Row) throws {
        let type: String = row["type"]
        guard let eventType = MediaEventType(rawValue: type) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown event type \(type)")
        }
        self.init(id: row["id"], type: eventType, mediaID: row["media_id"], itemJSON: row["item"], createdAt: row["created_at"])
    }
}

extension SQLiteCatalog {
    public func appendEvent(_ type: MediaEventType, item: MediaItem) async throws -> MediaEvent {
        let itemJSON = try MediaEvent.encode(item)
        return try await writer.write { db in
            try MediaEvent.fetchOne(
                db, sql: "INSERT INTO events (type, media_id, item) VALUES (?, ?, ?) RETURNING *",
                arguments: [type.rawValue, item.id, itemJSON]
            )!
        }
    }

    public func events(after id: Int64, mediaID: Int64?, limit: Int) async throws -> [MediaEvent] {
        try await writer.read { db in
            try MediaEvent.fetchAll(
                db,
                sql: "SELECT * FROM events WHERE id > ? AND (? IS NULL OR media_id = ?) ORDER BY id LIMIT ?",
                arguments: [id, mediaID, mediaID, limit]
            )
        }
    }

    public func lastEventID() async throws -> Int64 {
        try await writer.read { db in try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM events") ?? 0 }
    }

    public func pruneEvents(olderThan seconds: Double) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM events WHERE created_epoch < \(sqlEpoch) - ?
                        AND id NOT IN (SELECT event_id FROM webhook_deliveries WHERE status = 'pending')
                    """,
                arguments: [seconds]
            )
            return db.changesCount
        }
    }
}
