import GRDB

extension SQLiteCatalog {
    public func useSignature(_ signature: String, expiresAt: Int64, now: Int64) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM signatures WHERE expires_at < ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO signatures (signature, expires_at) VALUES (?, ?) ON CONFLICT (signature) DO NOTHING",
                arguments: [signature, expiresAt]
            )
            return db.changesCount == 1
        }
    }

    public func isSignatureUsed(_ signature: String, now: Int64) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM signatures WHERE signature = ? AND expires_at >= ?)", arguments: [signature, now]
            ) ?? false
        }
    }
}
