import GRDB

extension Caption: FetchableRecord {
    public init(row: Row) {
        self.init(id: row["id"], mediaID: row["media_id"], language: row["language"], name: row["name"],
                  isDefault: row["is_default"], createdAt: row["created_at"])
    }
}

extension SQLiteCatalog {
    public func insertCaption(_ caption: NewCaption) async throws -> Caption? {
        try await writer.write { db in
            guard try Self.touch(caption.mediaID, db) else { return nil }
            if caption.isDefault {
                try db.execute(sql: "UPDATE captions SET is_default = 0 WHERE media_id = ?", arguments: [caption.mediaID])
            }
            return try Caption.fetchOne(
                db,
                sql: "INSERT INTO captions (media_id, language, name, is_default) VALUES (?, ?, ?, ?) RETURNING *",
                arguments: [caption.mediaID, caption.language, caption.name, caption.isDefault]
            )
        }
    }

    public func captions(mediaID: Int64) async throws -> [Caption] {
        try await writer.read { db in
            try Caption.fetchAll(db, sql: "SELECT * FROM captions WHERE media_id = ? ORDER BY id", arguments: [mediaID])
        }
    }

    public func deleteCaption(id: Int64, mediaID: Int64) async throws -> Caption? {
        try await writer.write { db in
            guard let caption = try Caption.fetchOne(
                db, sql: "DELETE FROM captions WHERE id = ? AND media_id = ? RETURNING *", arguments: [id, mediaID]
            ) else { return nil }
            _ = try Self.touch(mediaID, db)
            return caption
        }
    }

    /// Marks the item changed, so that caches keyed by `updated_at` see its new captions; false when there is
    /// no such item.
    private static func touch(_ mediaID: Int64, _ db: Database) throws -> Bool {
        try db.execute(sql: "UPDATE media SET updated_at = \(sqlNow) WHERE id = ?", arguments: [mediaID])
        return db.changesCount > 0
    }

    /// The captions of `items`, attached to each.
    static func attachingCaptions(to items: [MediaItem], _ db: Database) throws -> [MediaItem] {
        guard let low = items.map(\.id).min(), let high = items.map(\.id).max() else { return items }
        let captions = try Caption.fetchAll(
            db, sql: "SELECT * FROM captions WHERE media_id BETWEEN ? AND ? ORDER BY id", arguments: [low, high]
        )
        return items.attaching(captions)
    }
}
