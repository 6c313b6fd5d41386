import Foundation
import Logging
import PostgresNIO
import VODCatalog
import _ConnectionPoolModule

/// The catalog and transcode queue on PostgreSQL, shared by any number of API nodes and `vod worker`
/// processes on any number of machines.
///
/// The value owns a pool of connections (`PostgresClient`, which reconnects by itself after the server
/// restarts) and runs the migrations once at `connect`. Workers claim jobs with `SELECT … FOR UPDATE SKIP
/// LOCKED`, and `NOTIFY vod_jobs` wakes idle workers when a job may be waiting.
public final class PostgresCatalog: MediaCatalog, Sendable {
    let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>
    private let signals: JobSignalHub

    /// The channel workers listen on.
    static let jobChannel = "vod_jobs"

    /// Connects to `url` (`postgres://user:password@host:port/database`), waits until the server answers
    /// (for up to `timeout`), and brings the schema up to date.
    public static func connect(url: String, logger: Logger, timeout: Duration = .seconds(30)) async throws -> PostgresCatalog {
        let catalog = PostgresCatalog(configuration: try PostgresURL.configuration(url), logger: logger)
        let deadline = ContinuousClock.now + timeout
        do {
            while true {
                do {
                    try await catalog.ping()
                    break
                } catch where ContinuousClock.now < deadline {
                    logger.notice("PostgreSQL is not answering yet; retrying", metadata: ["error": "\(String(reflecting: error))"])
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            try await catalog.migrate()
            return catalog
        } catch {
            catalog.shutdown()
            throw error
        }
    }

    private init(configuration: PostgresClient.Configuration, logger: Logger) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
        signals = JobSignalHub(client: client, channel: Self.jobChannel, logger: logger)
    }

    /// Closes the pool's connections.
    public func shutdown() {
        signals.stop()
        runner.cancel()
    }

    public func ping() async throws {
        try await available { try await client.query("SELECT 1", logger: logger) }
    }

    public func jobSignals() -> AsyncStream<Void>? { signals.subscribe() }

    /// Wakes the workers listening for jobs.
    func notifyWorkers() async throws {
        try await available { try await client.query("NOTIFY \(unescaped: Self.jobChannel)", logger: logger) }
    }

    /// The rows of `query`, each made into a value by `make`.
    func fetch<Value>(_ query: PostgresQuery, _ make: (PostgresRandomAccessRow) throws -> Value) async throws -> [Value] {
        try await available {
            var values: [Value] = []
            for try await row in try await client.query(query, logger: logger) {
                values.append(try make(row.makeRandomAccess()))
            }
            return values
        }
    }

    /// Runs `body`, turning the errors of an unreachable or restarting server into `CatalogUnavailable`.
    @discardableResult
    func available<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as PSQLError where Self.isUnavailable(error) {
            throw CatalogUnavailable("PostgreSQL is unavailable: \(error.code)")
        } catch let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped {
            // The pool has failed to connect for a while and fails requests at once until it connects again.
            throw CatalogUnavailable("PostgreSQL is unavailable: no connection could be made for a while")
        }
    }

    /// Connection failures, and the server's own "shutting down" and "starting up" (SQLSTATE classes 08 and 57).
    static func isUnavailable(_ error: PSQLError) -> Bool {
        guard error.code == .server else { return error.code != .queryCancelled }
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("08") || state.hasPrefix("57")
    }
}

/// SQL for the current time as ISO 8601 UTC with milliseconds, such as `2025-10-21T14:11:29.798Z`, as the
/// SQLite catalog writes it.
let pgNow = #"to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#

/// SQL for the current time in Unix seconds, with fractions.
let pgEpoch = "extract(epoch FROM clock_timestamp())::double precision"
