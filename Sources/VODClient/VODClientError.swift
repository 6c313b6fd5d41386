/// What went wrong in a `VODClient` call: the server refused the request (with its status and its own message), a
/// title failed (with the server's reason), waiting timed out, a file could not be read, or the server answered
/// something this client does not understand. Transport failures (no connection, a dropped one) come from
/// AsyncHTTPClient as they are.
///
/// Compare with `==` or read `kind`, `status` and `message`:
///
/// ```swift
/// catch let error as VODClientError where error.status == 401 { … }
/// catch let error as VODClientError where error.kind == .mediaFailed { print(error.message) }
/// ```
public struct VODClientError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case refused(status: Int, message: String)
        case mediaFailed(id: Int64, reason: String)
        case timedOut(id: Int64, seconds: Double)
        case unreadableFile(path: String)
        case invalidResponse(String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The server answered with an error `status`; `message` is its `{"error": …}`, or the reason phrase.
    public static func refused(status: Int, message: String) -> VODClientError { .init(.refused(status: status, message: message)) }
    /// The title's transcode failed; `reason` is the server's.
    public static func mediaFailed(id: Int64, reason: String) -> VODClientError { .init(.mediaFailed(id: id, reason: reason)) }
    /// The title was not ready within the time allowed.
    public static func timedOut(id: Int64, after timeout: Duration) -> VODClientError {
        .init(.timedOut(id: id, seconds: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18))
    }
    /// The file to upload could not be read.
    public static func unreadableFile(_ path: String) -> VODClientError { .init(.unreadableFile(path: path)) }
    /// The server's answer is not what the API promises.
    public static func invalidResponse(_ what: String) -> VODClientError { .init(.invalidResponse(what)) }

    /// The kind of failure, whatever its details.
    public struct Kind: Hashable, Sendable {
        private let name: String
        /// See `VODClientError.refused(status:message:)`.
        public static let refused = Kind(name: "refused")
        /// See `VODClientError.mediaFailed(id:reason:)`.
        public static let mediaFailed = Kind(name: "mediaFailed")
        /// See `VODClientError.timedOut(id:after:)`.
        public static let timedOut = Kind(name: "timedOut")
        /// See `VODClientError.unreadableFile(_:)`.
        public static let unreadableFile = Kind(name: "unreadableFile")
        /// See `VODClientError.invalidResponse(_:)`.
        public static let invalidResponse = Kind(name: "invalidResponse")
    }

    /// The kind of failure.
    public var kind: Kind {
        switch code {
        case .refused: .refused
        case .mediaFailed: .mediaFailed
        case .timedOut: .timedOut
        case .unreadableFile: .unreadableFile
        case .invalidResponse: .invalidResponse
        }
    }

    /// The HTTP status of a refused request; nil for the other kinds.
    public var status: Int? {
        guard case .refused(let status, _) = code else { return nil }
        return status
    }

    /// The media item concerned, for a failed title or a timeout.
    public var mediaID: Int64? {
        switch code {
        case .mediaFailed(let id, _), .timedOut(let id, _): id
        default: nil
        }
    }

    /// What went wrong, in words: the server's own message for a refused request, its reason for a failed title.
    public var message: String {
        switch code {
        case .refused(_, let message): message
        case .mediaFailed(_, let reason): reason
        case .timedOut(let id, let seconds): "media \(id) was not ready after \(seconds) s"
        case .unreadableFile(let path): "cannot read \(path)"
        case .invalidResponse(let what): what
        }
    }

    /// The message, with the status or the item it concerns.
    public var description: String {
        switch code {
        case .refused(let status, let message): "the server refused the request (\(status)): \(message)"
        case .mediaFailed(let id, let reason): "media \(id) failed: \(reason)"
        default: message
        }
    }
}
