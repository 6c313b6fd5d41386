import NIOCore

/// Notices at once that the client of an event stream has gone. NIO's HTTP/1 pipelining handler stops reading a
/// connection while a response is in progress, so a server-sent event stream, whose response never ends, would
/// learn of its client's close only when a later write fails (a keep-alive, up to 15 s on) and hold its place
/// among the event-stream subscribers until then. Sitting next to the socket, this handler keeps one read
/// outstanding while a stream is armed (`Arm`), and closes the connection when the client half-closes it or sends
/// more than `budget` bytes meanwhile: an event-stream client has nothing more to send, and what it sends is
/// held by the pipelining handler until the stream ends.
final class EventStreamCloseWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Starts (`true`) or stops (`false`) the watch on a connection, sent with `Channel.triggerUserOutboundEvent`.
    struct Arm: Sendable {
        let on: Bool
    }

    /// The bytes a client may send while its stream is armed before the connection is closed.
    static let budget = 16 * 1024

    private var armed = false
    private var received = 0

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let arm = event as? Arm else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        armed = arm.on
        received = 0
        promise?.succeed()
        if armed { context.read() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if armed {
            received += unwrapInboundIn(data).readableBytes
            if received > Self.budget { return context.close(promise: nil) }
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        if armed { context.read() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if armed, let event = event as? ChannelEvent, event == .inputClosed {
            return context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}
