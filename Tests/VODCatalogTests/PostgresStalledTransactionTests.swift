import Logging
import Testing
import VODCatalog
@testable import VODPostgres
import VODTestSupport

/// A process frozen inside a transaction loses it, and its locks, after a few seconds, so the others go on.
@Suite(.tags(.postgres), .needsExternalTools, .timeLimit(.minutes(10))) struct PostgresStalledTransactionTests {
    /// A `vod worker` stopped (SIGSTOP) while it held the event log's lock to append a progress event stalled
    /// every other process's events, and with them their progress, claims and uploads, until it woke.
    @Test func aTransactionLeftIdleLosesItsLocksSoTheOthersGoOn() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let logger = Logger(label: "vod-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let frozen = try await PostgresCatalog.connect(url: url, logger: logger)
        let other = try await PostgresCatalog.connect(url: url, logger: logger)
        defer {
            frozen.shutdown()
            other.shutdown()
        }
        let item = try await other.insert(CatalogStore.newMedia("clip"))
        let (locked, lockTaken) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await frozen.transaction { connection in
                try await connection.query("LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE", logger: logger)
                lockTaken.yield()
                try await Task.sleep(for: .seconds(60))
            }
        }
        for await _ in locked { break }
        let started = ContinuousClock.now
        let event = try await other.appendEvent(.created, item: item)
        let waited = ContinuousClock.now - started
        holder.cancel()
        #expect(event.mediaID == item.id && event.type == .created)
        #expect(waited >= .seconds(PostgresURL.idleTransactionTimeout - 1), "it did wait for the lock: \(waited)")
        #expect(waited < .seconds(30), "the frozen transaction's lock was taken from it, not held for its 60 s: \(waited)")
        let stillThere = try await other.events(after: 0, mediaID: item.id, limit: 10)
        #expect(stillThere.map(\.id) == [event.id], "the appended event is committed and readable")
    }
}

extension PostgresStalledTransactionTests {
    /// The frozen process, once awake, is told its transaction is gone: the statement it sends next fails, the
    /// transaction fails with it, and the catalog goes on with a new connection. (A worker woken from SIGSTOP
    /// waited forever here on a progress event, and with it the whole job.)
    @Test func aTransactionTheServerEndedFailsWhenItsProcessWakes() async throws {
        let url = try await ThrowawayPostgres.shared().makeDatabase()
        let logger = Logger(label: "vod-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let frozen = try await PostgresCatalog.connect(url: url, logger: logger)
        defer { frozen.shutdown() }
        let item = try await frozen.insert(CatalogStore.newMedia("clip"))
        let started = ContinuousClock.now
        // The first of the transaction's end and a deadline; a transaction that hangs is left behind, not awaited.
        let (outcomes, report) = AsyncStream.makeStream(of: String.self)
        Task {
            do {
                try await frozen.transaction { connection in
                    try await connection.query("LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE", logger: logger)
                    try await Task.sleep(for: .seconds(PostgresURL.idleTransactionTimeout + 2))
                    try await connection.query("SELECT 1", logger: logger)
                }
                report.yield("committed")
            } catch {
                report.yield("failed: \(type(of: error))")
            }
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(PostgresURL.idleTransactionTimeout + 30))
            report.yield("still waiting")
        }
        defer { deadline.cancel() }
        var outcome = ""
        for await first in outcomes {
            outcome = first
            break
        }
        #expect(outcome == "failed: CatalogUnavailable", "after \(ContinuousClock.now - started)")
        #expect(try await frozen.media(id: item.id)?.id == item.id, "the catalog answers again")
    }
}
