import Foundation
import GRDB

extension SQLiteCatalog {
    public func setEncryptionKey(_ key: [UInt8], for mediaID: Int64) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO title_keys (media_id, key) VALUES (?, ?) ON CONFLICT (media_id) DO UPDATE SET key = excluded.key",
                arguments: [mediaID, Data(key)]
            )
        }
    }

    public func encryptionKey(of mediaID: Int64) async throws -> [UInt8]? {
        try await writer.read { db in
            try Data.fetchOne(db, sql: "SELECT key FROM title_keys WHERE media_id = ?", arguments: [mediaID]).map(Array.init)
        }
    }
}
