import Foundation
import Hummingbird
import HummingbirdTesting
@testable import VODServer
import VODTestSupport

/// Requests of a tus client, for the protocol-level tests.
extension TestClientProtocol {
    /// Sends `method` to `uri` with `Tus-Resumable: 1.0.0` and `headers`; a body goes as
    /// `application/offset+octet-stream` unless `headers` name another type.
    func tus(
        _ uri: String, _ method: HTTPRequest.Method, _ headers: HTTPFields = [:], body: [UInt8]? = nil
    ) async throws -> TestResponse {
        var fields: HTTPFields = [.tusResumable: "1.0.0"]
        if body != nil, headers[.contentType] == nil { fields[.contentType] = "application/offset+octet-stream" }
        fields.append(contentsOf: headers)
        return try await execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
    }

    /// Creates an upload of `length` bytes and returns its path, such as `/api/uploads/<id>`.
    func createUpload(length: Int, metadata: [String: String] = [:], headers: HTTPFields = [:]) async throws -> String {
        var fields = headers
        fields[.uploadLength] = "\(length)"
        if !metadata.isEmpty { fields[.uploadMetadata] = TusWire.metadata(metadata) }
        let response = try await tus("/api/uploads", .post, fields)
        guard response.status == .created, let location = response.headers[.location].flatMap(URL.init(string:)) else {
            throw LiveTestFailure(description: "creation answered \(response.status): \(response.body.text)")
        }
        return location.path
    }

    /// Sends `bytes` as the chunk at `offset`, with its SHA-1 when `checksum`.
    func patch(_ path: String, offset: Int, _ bytes: [UInt8], checksum: Bool = false) async throws -> TestResponse {
        var headers: HTTPFields = [.uploadOffset: "\(offset)"]
        if checksum { headers[.uploadChecksum] = "sha1 \(try await TusWire.sha1(bytes))" }
        return try await tus(path, .patch, headers, body: bytes)
    }
}

/// What goes on the wire, computed independently of the server.
enum TusWire {
    /// `Upload-Metadata` for `pairs`, keys sorted.
    static func metadata(_ pairs: [String: String]) -> String {
        pairs.sorted { $0.key < $1.key }.map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }
            .joined(separator: ",")
    }

    /// The base64 SHA-1 of `bytes`, by OpenSSL.
    static func sha1(_ bytes: [UInt8]) async throws -> String {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("chunk")
        try Data(bytes).write(to: file)
        _ = try await ExternalTool.require("openssl", ["dgst", "-sha1", "-binary", "-out", "\(file.path).sha1", file.path])
        return try Data(contentsOf: URL(fileURLWithPath: "\(file.path).sha1")).base64EncodedString()
    }
}

extension RawHTTP {
    /// The head of a tus `PATCH` of `length` bytes at `offset`, for chunks sent over a plain socket.
    static func tusPatch(_ path: String, offset: Int, length: Int, _ extra: [String] = []) -> [UInt8] {
        head("PATCH", path, [
            "Tus-Resumable: 1.0.0", "Upload-Offset: \(offset)", "Content-Length: \(length)",
            "Content-Type: application/offset+octet-stream",
        ] + extra)
    }
}
