import Foundation
import Hummingbird

/// An error of the vod API that knows its HTTP status and JSON body, `{"error": "…"}`.
///
/// The messages of the client contract (`Media not found`, `Media not ready for streaming`,
/// `Segment not found`) are reproduced exactly; shipped apps compare them.
public struct APIError: HTTPResponseError, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Equatable, Sendable {
        case mediaNotFound
        case notReady
        case segmentNotFound(String)
        case noFile
        case uploadTooLarge(Int64)
        case unsupportedContentType(String?)
        case captionNotFound
        case unprocessable(String)
        case badRequest(String)
        case conflict(String)
        case rangeNotSatisfiable(Int)
        case notFound
        case http(HTTPResponse.Status, String?)
        case busy(String, retryAfter: Int)
        case databaseUnavailable
        case internalError
    }

    private let code: Code

    /// 404 `{"error": "Media not found"}`.
    public static var mediaNotFound: APIError { APIError(code: .mediaNotFound) }
    /// 404 `{"error": "Media not ready for streaming"}`.
    public static var notReady: APIError { APIError(code: .notReady) }
    /// 404 `{"error": "Segment not found", "segment": path}` with the path below the stream, such as `720p/segment_001.ts`.
    public static func segmentNotFound(_ path: String) -> APIError { APIError(code: .segmentNotFound(path)) }
    /// 400: the upload carried no file.
    public static var noFile: APIError { APIError(code: .noFile) }
    /// 413: the upload is larger than `limit` bytes.
    public static func uploadTooLarge(limit: Int64) -> APIError { APIError(code: .uploadTooLarge(limit)) }
    /// 415: the upload's Content-Type is neither multipart/form-data nor video/*.
    public static func unsupportedContentType(_ type: String?) -> APIError { APIError(code: .unsupportedContentType(type)) }
    /// 404 `{"error": "Caption not found"}`.
    public static var captionNotFound: APIError { APIError(code: .captionNotFound) }
    /// 422 with a message: the request is well formed but its content cannot be used.
    public static func unprocessable(_ message: String) -> APIError { APIError(code: .unprocessable(message)) }
    /// 400 with a message.
    public static func badRequest(_ message: String) -> APIError { APIError(code: .badRequest(message)) }
    /// 409 with a message.
    public static func conflict(_ message: String) -> APIError { APIError(code: .conflict(message)) }
    /// 416 for a file of `size` bytes.
    public static func rangeNotSatisfiable(size: Int) -> APIError { APIError(code: .rangeNotSatisfiable(size)) }
    /// 404 for a path no route serves.
    public static var notFound: APIError { APIError(code: .notFound) }
    /// Any other status, with `message` or the status's reason phrase.
    public static func http(_ status: HTTPResponse.Status, message: String?) -> APIError {
        APIError(code: .http(status, message))
    }
    /// 503 with `Retry-After`: the server holds as many of something (event streams, uploads) as it allows.
    public static func busy(_ message: String, retryAfter seconds: Int) -> APIError {
        APIError(code: .busy(message, retryAfter: seconds))
    }
    /// 503: the catalog does not answer.
    public static var databaseUnavailable: APIError { APIError(code: .databaseUnavailable) }
    /// 500, without details: those go to the log.
    public static var internalError: APIError { APIError(code: .internalError) }

    public var status: HTTPResponse.Status {
        switch code {
        case .mediaNotFound, .notReady, .segmentNotFound, .captionNotFound, .notFound: .notFound
        case .noFile, .badRequest: .badRequest
        case .uploadTooLarge: .contentTooLarge
        case .unsupportedContentType: .unsupportedMediaType
        case .unprocessable: .unprocessableContent
        case .conflict: .conflict
        case .rangeNotSatisfiable: .rangeNotSatisfiable
        case .http(let status, _): status
        case .databaseUnavailable, .busy: .serviceUnavailable
        case .internalError: .internalServerError
        }
    }

    /// The text of the `error` key.
    public var description: String {
        switch code {
        case .mediaNotFound: "Media not found"
        case .notReady: "Media not ready for streaming"
        case .segmentNotFound: "Segment not found"
        case .noFile: "No file uploaded: send a multipart/form-data field named \"file\" or a video/* body"
        case .uploadTooLarge(let limit): "Upload exceeds the maximum size of \(limit) bytes"
        case .unsupportedContentType(let type):
            "Unsupported Content-Type \(type.map { "'\($0)'" } ?? "(none)"): send multipart/form-data or video/*"
        case .captionNotFound: "Caption not found"
        case .badRequest(let message), .conflict(let message), .unprocessable(let message), .busy(let message, _): message
        case .rangeNotSatisfiable: "Requested range not satisfiable"
        case .notFound: "Not found"
        case .http(let status, let message): message ?? status.reasonPhrase
        case .databaseUnavailable: "Database unavailable"
        case .internalError: "Internal server error"
        }
    }

    private var body: [String: String] {
        if case .segmentNotFound(let path) = code { return ["error": description, "segment": path] }
        return ["error": description]
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if case .rangeNotSatisfiable(let size) = code { headers[.contentRange] = "bytes */\(size)" }
        if case .busy(_, let seconds) = code { headers[.retryAfter] = String(seconds) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(body)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
