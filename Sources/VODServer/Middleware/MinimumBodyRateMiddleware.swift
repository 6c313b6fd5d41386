import Hummingbird
import NIOCore

/// Bounds slow-drip request bodies: once a body has been arriving for `grace`, it must have averaged at least
/// `bytesPerSecond` since it began, or the request is answered 408 and the connection's input is closed, so
/// that the client cannot hold the connection by dripping on (the HTTP layer then answers the unfinished body
/// with a bare 400 and closes the connection).
///
/// A body that stops altogether is the idle timeout's business (`VODServerConfiguration.idleTimeout`), answered 408
/// by `RequestBodyTimeout`.
struct MinimumBodyRateMiddleware: RouterMiddleware {
    typealias Context = VODRequestContext

    let bytesPerSecond: Int
    let grace: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard bytesPerSecond > 0, Self.hasBody(request) else { return try await next(request, context) }
        var request = request
        request.body = RequestBody(
            asyncSequence: RateCheckedBody(base: request.body, bytesPerSecond: bytesPerSecond, grace: grace, channel: context.channel)
        )
        return try await next(request, context)
    }

    /// Whether the request announces a body (RFC 9112 §6.1): a request without `Content-Length` or
    /// `Transfer-Encoding` has none, and needs no watching.
    private static func hasBody(_ request: Request) -> Bool {
        request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) != 0
    }
}

/// A request body that fails once it falls below its minimum average rate.
struct RateCheckedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: RequestBody
    let bytesPerSecond: Int
    let grace: Duration
    let channel: any Channel

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let body: RateCheckedBody
        let start = ContinuousClock.now
        var received = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            received += chunk.readableBytes
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if elapsed > body.grace, Double(received) < Double(body.bytesPerSecond) * seconds {
                body.channel.close(mode: .input, promise: nil)
                throw APIError.http(
                    .requestTimeout,
                    message: "The request body arrived slower than \(body.bytesPerSecond) bytes per second"
                )
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), body: self)
    }
}
