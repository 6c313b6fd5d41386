import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension VODClient {
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
