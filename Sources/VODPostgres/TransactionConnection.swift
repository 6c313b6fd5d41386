import Logging
import NIOCore
import PostgresNIO
import VODCatalog

/// The pooled connection a transaction runs on, whose statements fail at once when the connection has closed.
///
/// PostgreSQL ends a session left idle inside a transaction (`idle_in_transaction_session_timeout`), for example
/// of a process that was stopped or swapped out meanwhile. postgres-nio 1.33's `query` writes its statement to
/// the channel without a promise, so a statement written after the channel closed is dropped and its caller
/// waits forever: a `vod worker` woken from SIGSTOP waited so on a progress event, and its whole job with it.
/// Here each statement is written from the connection's event loop after checking there that the channel is
/// still open, where no close can come in between.
struct TransactionConnection: Sendable {
    let connection: PostgresConnection

    /// Runs `query` and returns all its rows.
    @discardableResult
    func query(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let connection = self.connection
        return try await connection.eventLoop.flatSubmit {
            guard !connection.isClosed else {
                return connection.eventLoop.makeFailedFuture(
                    CatalogUnavailable("PostgreSQL closed the connection during a transaction (left idle too long, or restarting)")
                )
            }
            return connection.query(query, logger: logger).map(\.rows)
        }.get()
    }
}

extension PostgresCatalog {
    /// Runs `body` in a transaction on one connection of the pool: committed when `body` returns, rolled back
    /// when it throws. A connection that closes meanwhile fails the transaction rather than holding it.
    func transaction<Value: Sendable>(_ body: (TransactionConnection) async throws -> Value) async throws -> Value {
        try await available {
            try await client.withConnection { connection in
                let transaction = TransactionConnection(connection: connection)
                try await transaction.query("BEGIN", logger: logger)
                do {
                    let value = try await body(transaction)
                    try await transaction.query("COMMIT", logger: logger)
                    return value
                } catch {
                    // A closed connection has no transaction left to roll back; the server rolled it back.
                    _ = try? await transaction.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }
    }
}
