import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with WebSocket upgrades, given what its plain HTTP/1 channel does before a
/// request's head has been read: a connection that sends nothing, or half a head, for the idle timeout is closed,
/// and a head the parser refuses (too large, malformed) gets 400 and a close. The upgrade channel arms its idle
/// timeout only once a head has been read, and answers nothing to a head it cannot parse.
struct GuardedWebSocketChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let base: HTTP1WebSocketUpgradeChannel
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let idle = IdleStateHandler(readTimeout: idleTimeout)
            try pipeline.addHandler(idle, position: .first)
            try pipeline.addHandler(FirstHeadGuard(idle: idle), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Watches a connection until its first request head: closes it when the head does not come within the idle
/// timeout, answers 400 when the parser refuses it, and steps aside (with the idle handler) once it has come.
final class FirstHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let idle: IdleStateHandler

    init(idle: IdleStateHandler) {
        self.idle = idle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let isHead = if case .head = unwrapInboundIn(data) { true } else { false }
        context.fireChannelRead(data)
        guard isHead else { return }
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
        let body = ByteBuffer(string: #"{"error":"The request head could not be read: it is malformed or too large"}"#)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
