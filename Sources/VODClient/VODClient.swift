import AsyncHTTPClient
import Foundation
import VODModel

/// A client of a `vod serve` API: the catalog (`list`, `get`, `update`, `delete`, `retry`), uploads that resume
/// (`upload`), captions, status events (`events`) and `waitUntilReady`.
///
/// Writes carry the API key and, with a signing secret, the HMAC signature the server's write protection asks
/// for. Errors the server answers with are thrown as `VODClientError`, with its message.
///
/// ```swift
/// let client = VODClient(baseURL: URL(string: "http://localhost:3000")!, apiKey: "…")
/// let media = try await client.upload(file: URL(fileURLWithPath: "clip.mp4"), title: "My clip")
/// let ready = try await client.waitUntilReady(id: media.id, timeout: .seconds(600))
/// print(ready.streamURL)
/// ```
public struct VODClient: Sendable {
    /// How the client paces uploads, retries and waits.
    public struct Options: Sendable {
        /// The bytes sent by each request of a resumable upload; a dropped request resends at most this much.
        public var chunkSize: Int = 8 << 20
        /// How many times in a row a failed chunk, or a dropped event stream, is tried again before giving up.
        public var maximumRetries: Int = 5
        /// The wait before the first retry; each later one waits twice as long. With a signing secret, at
        /// least a second, so that the retry carries a new timestamp (the server takes each signature once).
        public var retryDelay: Duration = .seconds(1)
        /// How often `waitUntilReady` asks when the server has no event stream.
        public var pollInterval: Duration = .seconds(1)
        /// How long a request other than an upload or an event stream may wait for its answer.
        public var requestTimeout: Duration = .seconds(60)

        /// The defaults.
        public init() {}
    }

    /// The server's address, such as `http://localhost:3000`.
    public let baseURL: URL
    /// How uploads, retries and waits are paced.
    public let options: Options
    let httpClient: HTTPClient
    let signer: RequestSigner

    /// A client of the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - apiKey: sent as `X-API-Key` with every write, for a server with `--api-key-file` or `VOD_API_KEY`.
    ///   - signingSecret: signs every write, for a server with `--api-secret-file` or `VOD_API_SECRET`.
    ///   - httpClient: the AsyncHTTPClient to send with; the shared one by default.
    public init(
        baseURL: URL, apiKey: String? = nil, signingSecret: String? = nil, options: Options = Options(),
        httpClient: HTTPClient = .shared
    ) {
        self.baseURL = baseURL
        self.options = options
        self.httpClient = httpClient
        signer = RequestSigner(apiKey: apiKey, secret: signingSecret)
    }

    /// Every item, newest first; `status` keeps those in that state, and `limit` and `offset` page.
    public func list(status: MediaStatus? = nil, limit: Int? = nil, offset: Int? = nil) async throws -> [Media] {
        let query = [("status", status?.rawValue), ("limit", limit.map(String.init)), ("offset", offset.map(String.init))]
            .compactMap { name, value in value.map { "\(name)=\($0)" } }
        return try await decode([Media].self, from: send(.GET, "/api/media" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))))
    }

    /// The item `id`.
    public func get(id: Int64) async throws -> Media {
        try await decode(Media.self, from: send(.GET, "/api/media/\(id)"))
    }

    /// Changes the title, the description or the visibility of item `id`; nil leaves a value as it is.
    public func update(
        id: Int64, title: String? = nil, description: String? = nil, visibility: MediaVisibility? = nil
    ) async throws -> Media {
        let changes = [("title", title), ("description", description), ("visibility", visibility?.rawValue)]
            .compactMap { key, value in value.map { (key, $0) } }
        let body = try JSONSerialization.data(withJSONObject: Dictionary(uniqueKeysWithValues: changes), options: [.sortedKeys])
        return try await decode(Media.self, from: send(.PATCH, "/api/media/\(id)", body: Array(body), contentType: "application/json"))
    }

    /// Removes item `id`, its original and its renditions.
    public func delete(id: Int64) async throws {
        _ = try await send(.DELETE, "/api/media/\(id)")
    }

    /// Puts failed item `id` back in the queue; it is `pending` again.
    public func retry(id: Int64) async throws -> Media {
        try await decode(Media.self, from: send(.POST, "/api/media/\(id)/retry"))
    }
}
