import Foundation
import PostgresNIO

/// Reads `postgres://user:password@host:port/database` (or `postgresql://`) into a client configuration.
enum PostgresURL {
    /// Whether `value` names a PostgreSQL database rather than an SQLite file.
    static func isPostgres(_ value: String) -> Bool {
        value.hasPrefix("postgres://") || value.hasPrefix("postgresql://")
    }

    /// Seconds a connection may sit idle inside a transaction before the server ends its session; every
    /// transaction of the catalog is a few statements sent back to back.
    static let idleTransactionTimeout = 5

    static func configuration(_ value: String) throws -> PostgresClient.Configuration {
        guard isPostgres(value), let components = URLComponents(string: value), let host = components.host, !host.isEmpty,
              let user = components.user, !user.isEmpty else {
            throw PostgresURLError(url: value)
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value
        let tls: PostgresClient.Configuration.TLS = sslMode == "require" ? .require(.makeClientConfiguration()) : .disable
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: components.password?.removingPercentEncoding, database: database.isEmpty ? nil : database, tls: tls
        )
        configuration.options.maximumConnections = 10
        configuration.options.connectTimeout = .seconds(5)
        // A process frozen inside a transaction (stopped, swapped out, cut off) would hold its locks, such as the
        // event log's, and stall every other process; the server ends such a session instead.
        configuration.options.additionalStartupParameters = [("idle_in_transaction_session_timeout", "\(idleTransactionTimeout)s")]
        return configuration
    }
}

/// A `--database` value that is not a PostgreSQL URL with a host and a user.
public struct PostgresURLError: Error, CustomStringConvertible {
    let url: String
    public var description: String {
        "the database is not a PostgreSQL URL of the form postgres://user:password@host:port/database"
    }
}

extension PostgresCatalog {
    /// Whether a `--database` value names a PostgreSQL database rather than an SQLite file.
    public static func isURL(_ value: String) -> Bool { PostgresURL.isPostgres(value) }

    /// `value` with the password of a PostgreSQL URL replaced by `***`, for logs.
    public static func redacting(_ value: String) -> String {
        guard isURL(value), var components = URLComponents(string: value), components.password != nil else { return value }
        components.password = "***"
        return components.string ?? value
    }
}
