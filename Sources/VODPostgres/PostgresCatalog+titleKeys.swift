import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func setEncryptionKey(_ key: [UInt8], for mediaID: Int64) async throws {
        _ = try await fetch(
            """
            INSERT INTO title_keys (media_id, key) VALUES (\(mediaID), \(ByteBuffer(bytes: key)))
            ON CONFLICT (media_id) DO UPDATE SET key = excluded.key RETURNING media_id
            """, { _ in () }
        )
    }

    public func encryptionKey(of mediaID: Int64) async throws -> [UInt8]? {
        try await fetch("SELECT key FROM title_keys WHERE media_id = \(mediaID)") { row in
            Array(buffer: try row["key"].decode(ByteBuffer.self))
        }.first
    }
}
