import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import VODCatalog

/// Answers a request whose body stops arriving. Hummingbird's idle timer closes a connection that sends nothing
/// for the idle timeout, in the middle of a request body too, which would leave its client without an answer.
/// When that close comes while a body is being read and its request has no answer yet, this handler holds it
/// back and fails the body with 408 (`bodyStopped`): the route answers `{"error": …}` as it answers any refusal,
/// and removes what it staged. That request's answer (after those of the requests before it) goes out with
/// `Connection: close`, then the connection is closed; if it has not ended within another idle timeout, the
/// connection is closed without it.
///
/// It sits between the HTTP/1 codec and Hummingbird's connection state handler, whose idle timer asks for the
/// close: it sees every request part, every answer and that close. Any other close goes through.
final class RequestBodyTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let idleTimeout: Duration
    /// Whether a request's head has been read and its end not yet.
    private var readingBody = false
    /// Request heads read, and answer heads written (informational ones aside).
    private var requests = 0
    private var answers = 0
    /// Once a close is held back: the close that ends the wait for the answer.
    private var heldClose: Scheduled<Void>?

    init(idleTimeout: Duration) {
        self.idleTimeout = idleTimeout
    }

    /// The refusal a body that stopped arriving fails with.
    private var bodyStopped: APIError {
        .http(.requestTimeout, message: "The request body stopped arriving: nothing came for \(idleTimeout.seconds.formatted()) s")
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        heldClose?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requests += 1
            readingBody = true
        case .body: break
        case .end: readingBody = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.kind != .informational:
            answers += 1
            guard heldClose != nil, answers == requests else { break }
            head.headerFields[.connection] = "close"
            return context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where heldClose != nil && answers == requests:
            heldClose?.cancel()
            context.writeAndFlush(data, promise: promise)
            return context.close(promise: nil)
        default: break
        }
        context.write(data, promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, heldClose == nil, readingBody, answers < requests else {
            return context.close(mode: mode, promise: promise)
        }
        if let promise { context.channel.closeFuture.cascade(to: promise) }
        heldClose = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(idleTimeout)) {
            context.close(promise: nil)
        }
        context.fireErrorCaught(bodyStopped)
    }
}
