import Foundation
import GRDB

/// The embedded catalog: one SQLite file in WAL mode, shared safely by `vod serve` and `vod import`.
///
/// The value owns the database connection pool and the migrator that brings the schema up to date.
public struct SQLiteCatalog: MediaCatalog {
    /// How long a statement waits for another process's write lock before failing.
    public static let busyTimeout: TimeInterval = 10

    let writer: DatabasePool

    /// Opens (creating when needed) the catalog at `path` and migrates it.
    public init(path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "vod.catalog"
        writer = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(writer)
    }

    /// The journal mode SQLite reports, `wal` for a catalog opened by this type.
    public func journalMode() throws -> String {
        try writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// What `PRAGMA integrity_check` reports: `["ok"]` for a sound database file, otherwise one line per problem.
    public func integrityCheck() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    public func ping() async throws {
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
}

/// SQL for the current time as ISO 8601 UTC with milliseconds, such as `2025-10-21T14:11:29.798Z`.
let sqlNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
