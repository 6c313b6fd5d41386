import GRDB

extension SQLiteCatalog {
    public func insert(_ media: NewMedia) async throws -> MediaItem {
        try await writer.write { db in
            try MediaItem.fetchOne(
                db,
                sql: """
                    INSERT INTO media (title, description, source_file_name, source_path, source_size, duration, probe,
                        source_summary, tracks, visibility, segment_format)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *
                    """,
                arguments: [
                    media.title, media.description, media.sourceFileName, media.sourcePath, media.sourceSize,
                    media.duration, media.probeJSON, media.sourceSummaryJSON, media.tracksJSON, media.visibility.rawValue,
                    media.segmentFormat.rawValue,
                ]
            )!
        }
    }

    public func media(id: Int64) async throws -> MediaItem? {
        try await writer.read { db in
            let item = try MediaItem.fetchOne(db, sql: "SELECT * FROM media WHERE id = ?", arguments: [id])
            return try item.map { try Self.attachingCaptions(to: [$0], db)[0] }
        }
    }

    public func list(status: MediaStatus?, includingPrivate: Bool, limit: Int?, offset: Int) async throws -> [MediaItem] {
        try await writer.read { db in
            let items = try MediaItem.fetchAll(
                db,
                sql: """
                    SELECT * FROM media WHERE (?1 IS NULL OR status = ?1) AND (?4 OR visibility = 'public')
                    ORDER BY id DESC LIMIT ?2 OFFSET ?3
                    """,
                // SQLite reads a negative LIMIT as no limit.
                arguments: [status?.rawValue, limit ?? -1, offset, includingPrivate]
            )
            return try Self.attachingCaptions(to: items, db)
        }
    }

    public func countByStatus() async throws -> [MediaStatus: Int] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT status, count(*) AS count FROM media GROUP BY status")
                .reduce(into: [:]) { counts, row in
                    if let status = MediaStatus(rawValue: row["status"]) { counts[status] = row["count"] as Int }
                }
        }
    }

    public func update(id: Int64, title: String?, description: String?, visibility: MediaVisibility?) async throws -> MediaItem? {
        try await writer.write { db in
            let item = try MediaItem.fetchOne(
                db,
                sql: """
                    UPDATE media SET title = coalesce(?, title), description = coalesce(?, description),
                        visibility = coalesce(?, visibility), updated_at = \(sqlNow)
                    WHERE id = ? RETURNING *
                    """,
                arguments: [title, description, visibility?.rawValue, id]
            )
            return try item.map { try Self.attachingCaptions(to: [$0], db)[0] }
        }
    }

    public func delete(id: Int64) async throws -> MediaItem? {
        try await writer.write { db in
            try MediaItem.fetchOne(db, sql: "DELETE FROM media WHERE id = ? RETURNING *", arguments: [id])
        }
    }

    public func retry(id: Int64) async throws -> MediaItem? {
        try await writer.write { db in
            guard let item = try MediaItem.fetchOne(db, sql: "SELECT * FROM media WHERE id = ?", arguments: [id]) else {
                return nil
            }
            guard item.status == .failed else { throw CatalogError.notFailed(item.status) }
            return try MediaItem.fetchOne(
                db,
                sql: """
                    UPDATE media SET status = 'pending', error = NULL, progress = 0, attempts = 0,
                        updated_at = \(sqlNow)
                    WHERE id = ? RETURNING *
                    """,
                arguments: [id]
            )
        }
    }

    public func sourcePaths() async throws -> [Int64: String] {
        try await writer.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, source_path FROM media")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"], $0["source_path"]) })
        }
    }
}
