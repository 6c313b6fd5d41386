import Logging
import Testing
import VODCatalog
@testable import VODPostgres
import VODTestSupport
import _ConnectionPoolModule

/// Which errors of the connection pool mean "the database is unavailable" (503 for the API, a retry for workers).
@Suite(.tags(.postgres), .needsExternalTools, .timeLimit(.minutes(10))) struct PostgresUnavailableTests {
    /// After failing to connect for a while, the pool fails requests at once with its circuit breaker; that is the
    /// database being unavailable, not an internal error (a PostgreSQL down for 15 s made the API answer 500).
    @Test func aTrippedCircuitBreakerIsUnavailability() async throws {
        let catalog = try await PostgresCatalog.connect(url: try await ThrowawayPostgres.shared().makeDatabase(),
                                                        logger: Logger(label: "vod-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        defer { catalog.shutdown() }
        await #expect(throws: CatalogUnavailable.self) {
            try await catalog.available { throw ConnectionPoolError.connectionCreationCircuitBreakerTripped }
        }
        await #expect(throws: ConnectionPoolError.requestCancelled) {
            try await catalog.available { throw ConnectionPoolError.requestCancelled }
        }
    }
}
