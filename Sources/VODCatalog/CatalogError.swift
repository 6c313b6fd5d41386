/// An error from the catalog about the state of an item.
public struct CatalogError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Equatable, Sendable {
        case notFailed(MediaStatus)
    }

    private let code: Code

    /// Only failed items can be retried; the item is in `status`.
    public static func notFailed(_ status: MediaStatus) -> CatalogError { CatalogError(code: .notFailed(status)) }

    /// The status of the item when the error is `notFailed`.
    public var currentStatus: MediaStatus? {
        switch code {
        case .notFailed(let status): status
        }
    }

    public var description: String {
        switch code {
        case .notFailed(let status): "Only failed media can be retried; this media is \(status.rawValue)"
        }
    }
}

/// The catalog's database cannot be reached now (a PostgreSQL server restarting, a network cut); a later try may
/// succeed. The server answers 503.
public struct CatalogUnavailable: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
