import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func insertCaption(_ caption: NewCaption) async throws -> Caption? {
        try await transaction { connection in
            let touched = try await connection.query(
                "UPDATE media SET updated_at = \(unescaped: pgNow) WHERE id = \(caption.mediaID) RETURNING id", logger: logger
            )
            guard !touched.isEmpty else { return nil }
            if caption.isDefault {
                try await connection.query("UPDATE captions SET is_default = false WHERE media_id = \(caption.mediaID)", logger: logger)
            }
            let rows = try await connection.query(
                """
                INSERT INTO captions (media_id, language, name, is_default)
                VALUES (\(caption.mediaID), \(caption.language), \(caption.name), \(caption.isDefault)) RETURNING *
                """, logger: logger
            )
            return try rows.first.map { try Caption(postgres: $0.makeRandomAccess()) }
        }
    }

    public func captions(mediaID: Int64) async throws -> [Caption] {
        try await fetch("SELECT * FROM captions WHERE media_id = \(mediaID) ORDER BY id", Caption.init(postgres:))
    }

    public func deleteCaption(id: Int64, mediaID: Int64) async throws -> Caption? {
        try await transaction { connection in
            let rows = try await connection.query(
                "DELETE FROM captions WHERE id = \(id) AND media_id = \(mediaID) RETURNING *", logger: logger
            )
            guard let row = rows.first else { return nil }
            try await connection.query("UPDATE media SET updated_at = \(unescaped: pgNow) WHERE id = \(mediaID)", logger: logger)
            return try Caption(postgres: row.makeRandomAccess())
        }
    }
}
