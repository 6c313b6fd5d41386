import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
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

    /// Changes the title or the description of item `id`, or both; nil leaves a value as it is.
    public func update(id: Int64, title: String? = nil, description: String? = nil) async throws -> Media {
        let changes = [("title", title), ("description", description)].compactMap { key, value in value.map { (key, $0) } }
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

    /// The absolute URL of `path` (a path and query under the server, such as `/api/media/7`).
    func url(_ path: String) -> String {
        var root = baseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        return root + path
    }

    /// Sends a request to `url` (absolute), signed when it is a write, and returns the response with its whole
    /// body; throws `VODClientError.refused` for an answer other than 2xx.
    func send(
        _ method: HTTPMethod, url: String, body: [UInt8] = [], contentType: String? = nil, headers: [(String, String)] = [],
        deadline: NIODeadline? = nil
    ) async throws -> (head: HTTPClientResponse, body: ByteBuffer) {
        var request = try request(method, url: url, headers: headers)
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if !body.isEmpty { request.body = .bytes(body) }
        if isWrite(method) {
            request.headers.add(contentsOf: signer.headers(method: method.rawValue, target: try Self.target(of: url), body: body))
        }
        let response = try await httpClient.execute(request, deadline: deadline ?? .now() + .init(options.requestTimeout))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        try Self.check(response.status, body: bytes)
        return (response, bytes)
    }

    /// `send` to a path under the server, returning the body alone.
    func send(
        _ method: HTTPMethod, _ path: String, body: [UInt8] = [], contentType: String? = nil
    ) async throws -> ByteBuffer {
        try await send(method, url: url(path), body: body, contentType: contentType).body
    }

    /// A request with the headers every request carries.
    func request(_ method: HTTPMethod, url: String, headers: [(String, String)]) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(contentsOf: headers)
        return request
    }

    /// Whether `method` changes something, and so is signed.
    func isWrite(_ method: HTTPMethod) -> Bool {
        ![.GET, .HEAD, .OPTIONS].contains(method)
    }

    /// The request target of `url` as it goes on the wire.
    static func target(of url: String) throws -> String {
        guard let parsed = URL(string: url) else { throw VODClientError.invalidResponse("not a URL: \(url)") }
        return RequestSigner.target(of: parsed)
    }

    /// Throws `VODClientError.refused` with the server's message unless `status` is a success.
    static func check(_ status: HTTPResponseStatus, body: ByteBuffer) throws {
        guard !(200..<300).contains(status.code) else { return }
        struct ErrorBody: Decodable { var error: String }
        let message = (try? JSONDecoder().decode(ErrorBody.self, from: Data(body.readableBytesView)))?.error
        throw VODClientError.refused(status: Int(status.code), message: message ?? status.reasonPhrase)
    }

    func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body.readableBytesView))
        } catch {
            throw VODClientError.invalidResponse("the server's answer is not a \(type): \(error)")
        }
    }
}

extension TimeAmount {
    /// The same length of time, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
