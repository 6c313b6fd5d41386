import PostgresNIO
import VODCatalog

extension PostgresCatalog {
    public func useSignature(_ signature: String, expiresAt: Int64, now: Int64) async throws -> Bool {
        try await fetch(
            """
            WITH expired AS (DELETE FROM signatures WHERE expires_at < \(now))
            INSERT INTO signatures (signature, expires_at) VALUES (\(signature), \(expiresAt))
            ON CONFLICT (signature) DO NOTHING RETURNING signature
            """, { _ in () }
        ).count == 1
    }

    public func isSignatureUsed(_ signature: String, now: Int64) async throws -> Bool {
        try await !fetch("SELECT 1 AS used FROM signatures WHERE signature = \(signature) AND expires_at >= \(now)", { _ in () }).isEmpty
    }
}
