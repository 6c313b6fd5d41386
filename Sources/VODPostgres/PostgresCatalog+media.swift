import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    /// Inserts `media` as pending; its `created_at` and `updated_at` are one reading of the clock (each column's
    /// default read it once, and the two could differ by a millisecond).
    public func insert(_ media: NewMedia) async throws -> MediaItem {
        let items = try await fetch(
            """
            INSERT INTO media (title, description, source_file_name, source_path, source_size, duration, probe,
                source_summary, tracks, visibility, segment_format, created_at, updated_at)
            SELECT \(media.title), \(media.description), \(media.sourceFileName), \(media.sourcePath), \(media.sourceSize),
                \(media.duration), \(media.probeJSON), \(media.sourceSummaryJSON), \(media.tracksJSON), \(media.visibility.rawValue),
                \(media.segmentFormat.rawValue), clock.now, clock.now
            FROM (SELECT \(unescaped: pgNow) AS now) AS clock
            RETURNING *
            """, MediaItem.init(postgres:))
        try await notifyWorkers()
        return items[0]
    }

    public func media(id: Int64) async throws -> MediaItem? {
        try await withCaptions(try await fetch("SELECT * FROM media WHERE id = \(id)", MediaItem.init(postgres:))).first
    }

    public func list(status: MediaStatus?, includingPrivate: Bool, limit: Int?, offset: Int) async throws -> [MediaItem] {
        // LIMIT NULL is no limit.
        try await withCaptions(try await fetch(
            """
            SELECT * FROM media WHERE (\(status?.rawValue)::text IS NULL OR status = \(status?.rawValue))
                AND (\(includingPrivate) OR visibility = 'public')
            ORDER BY id DESC LIMIT \(limit.map(Int64.init)) OFFSET \(Int64(offset))
            """, MediaItem.init(postgres:)))
    }

    public func countByStatus() async throws -> [MediaStatus: Int] {
        let rows = try await fetch("SELECT status, count(*) AS count FROM media GROUP BY status") { row in
            (status: MediaStatus(rawValue: try row["status"].decode(String.self)), count: Int(try row["count"].decode(Int64.self)))
        }
        return rows.reduce(into: [:]) { counts, row in
            if let status = row.status { counts[status] = row.count }
        }
    }

    public func update(id: Int64, title: String?, description: String?, visibility: MediaVisibility?) async throws -> MediaItem? {
        try await withCaptions(try await fetch(
            """
            UPDATE media SET title = coalesce(\(title), title), description = coalesce(\(description), description),
                visibility = coalesce(\(visibility?.rawValue), visibility), updated_at = \(unescaped: pgNow)
            WHERE id = \(id) RETURNING *
            """, MediaItem.init(postgres:))).first
    }

    public func delete(id: Int64) async throws -> MediaItem? {
        try await fetch("DELETE FROM media WHERE id = \(id) RETURNING *", MediaItem.init(postgres:)).first
    }

    public func retry(id: Int64) async throws -> MediaItem? {
        guard let item = try await fetch("SELECT * FROM media WHERE id = \(id)", MediaItem.init(postgres:)).first else { return nil }
        let retried = try await fetch(
            """
            UPDATE media SET status = 'pending', error = NULL, progress = 0, attempts = 0, updated_at = \(unescaped: pgNow)
            WHERE id = \(id) AND status = 'failed' RETURNING *
            """, MediaItem.init(postgres:)).first
        guard let retried else { throw CatalogError.notFailed(item.status) }
        try await notifyWorkers()
        return retried
    }

    public func sourcePaths() async throws -> [Int64: String] {
        let rows = try await fetch("SELECT id, source_path FROM media") { row in
            (try row["id"].decode(Int64.self), try row["source_path"].decode(String.self))
        }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    /// The items with their captions attached, in one query for all of them.
    private func withCaptions(_ items: [MediaItem]) async throws -> [MediaItem] {
        guard let low = items.map(\.id).min(), let high = items.map(\.id).max() else { return items }
        let captions = try await fetch(
            "SELECT * FROM captions WHERE media_id BETWEEN \(low) AND \(high) ORDER BY id", Caption.init(postgres:)
        )
        return items.attaching(captions)
    }
}
