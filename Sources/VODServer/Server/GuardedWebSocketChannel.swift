import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with WebSocket upgrades, given what its plain HTTP/1 channel does before a
/// request's head has been read: a connection that sends nothing, or half a head, for the idle timeout is closed,
/// and a head the parser refuses (too large, malformed) gets 400 and a close. The upgrade channel arms its idle
/// timeout only once a head has been read, and answers nothing to a head it cannot parse. A WebSocket upgrade
/// while every event-stream place is taken gets 503 with `Retry-After` and a close, where the upgrade channel would
/// answer a declined upgrade with a bare 400. An event stream's connection notices its client's close at once
/// (`EventStreamCloseWatch`).
struct GuardedWebSocketChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let base: HTTP1WebSocketUpgradeChannel
    let idleTimeout: TimeAmount
    /// The event streams open, which `GET /api/ws` takes a place of.
    let subscribers: ConnectionSlots

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let idle = IdleStateHandler(readTimeout: idleTimeout)
            try pipeline.addHandler(idle, position: .first)
            try pipeline.addHandler(EventStreamCloseWatch(), position: .first)
            try pipeline.addHandler(FirstHeadGuard(idle: idle, subscribers: subscribers), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Watches a connection until its first request head: closes it when the head does not come within the idle
/// timeout, answers 400 when the parser refuses it, answers 503 to a WebSocket upgrade while every event-stream
/// place is taken, and steps aside (with the idle handler) once an accepted head has come.
final class FirstHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let idle: IdleStateHandler
    private let subscribers: ConnectionSlots
    /// Whether the first request was answered here; what else the connection sends is dropped until it closes.
    private var answered = false

    init(idle: IdleStateHandler, subscribers: ConnectionSlots) {
        self.idle = idle
        self.subscribers = subscribers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        let head: HTTPRequestHead? = if case .head(let head) = unwrapInboundIn(data) { head } else { nil }
        if let head, Self.isWebSocketUpgrade(head), subscribers.isFull {
            answered = true
            return answer(context: context, status: .serviceUnavailable, error: subscribers.refusalMessage,
                          headers: [("Retry-After", "\(ConnectionSlots.retryAfter)")])
        }
        context.fireChannelRead(data)
        guard head != nil else { return }
        context.pipeline.syncOperations.removeHandler(idle, promise: nil)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let event = event as? IdleStateHandler.IdleStateEvent, event == .read else {
            return context.fireUserInboundEventTriggered(event)
        }
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        answer(context: context, status: .badRequest, error: "The request head could not be read: it is malformed or too large")
    }

    /// Whether `head` asks for the event WebSocket, `GET /api/ws` with `Upgrade: websocket`.
    private static func isWebSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) == EventsWebSocket.path
            && head.headers["Upgrade"].contains { $0.lowercased() == "websocket" }
    }

    /// Answers `{"error": error}` with `status` and closes the connection.
    private func answer(context: ChannelHandlerContext, status: HTTPResponseStatus, error: String, headers extra: [(String, String)] = []) {
        let body = ByteBuffer(bytes: (try? JSONEncoder().encode(["error": error])) ?? Data())
        var headers = HTTPHeaders(extra)
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
