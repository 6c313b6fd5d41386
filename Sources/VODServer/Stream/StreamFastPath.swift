import Foundation
import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Answers the requests players make most, on the connection's own event loop and before Hummingbird: a GET
/// or HEAD of a stream playlist already held in memory (`StreamFiles.immediateFile`), with no range and no
/// condition, on a connection kept alive. Its answer is the one the route would give, byte for byte but for
/// `Date`, and it is counted in the same request metrics. Everything else, and every request while an earlier
/// one is still with Hummingbird (so that pipelined answers keep their order), goes on to Hummingbird.
///
/// It sits after Hummingbird's connection state handler, so that keep-alive, `Connection: close`, the idle
/// timeout and graceful shutdown see its requests and answers as theirs (`StreamFastPath.Installer`).
final class StreamFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The answer to the request being read, sent once it has ended.
    private struct Answer {
        let head: HTTPResponse
        let body: ByteBuffer?
        let metrics: ServiceMetrics.RequestHandles
        let started: ContinuousClock.Instant
    }

    private let files: StreamFiles
    private let metrics: ServiceMetrics
    private let serverName: String
    /// Requests handed on to Hummingbird whose answers have not ended.
    private var handedOn = 0
    private var answer: Answer?

    init(files: StreamFiles, metrics: ServiceMetrics, serverName: String) {
        self.files = files
        self.metrics = metrics
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if handedOn == 0, let answer = immediateAnswer(to: request) {
                self.answer = answer
            } else {
                handedOn += 1
                context.fireChannelRead(data)
            }
        case .body:
            if answer == nil { context.fireChannelRead(data) }
        case .end:
            guard let answer else { return context.fireChannelRead(data) }
            self.answer = nil
            send(answer, context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { handedOn = max(handedOn - 1, 0) }
        context.write(data, promise: promise)
    }

    private func immediateAnswer(to request: HTTPRequest) -> Answer? {
        // Hummingbird ends the connection after a request that asks it to: such a request goes its way.
        guard request.headerFields[.connection]?.lowercased().contains("close") != true,
              let (id, relative) = Self.streamTarget(request.path),
              let file = files.immediateFile(id: id, relative: relative),
              let immediate = file.immediateResponse(to: request) else { return nil }
        var head = immediate.head
        head.headerFields[.date] = HTTPDate.now()
        head.headerFields[.server] = serverName
        let route = relative == nil ? MediaController.masterRoute : MediaController.streamFileRoute
        return Answer(head: head, body: immediate.body, metrics: metrics.requests(route: route, method: request.method.rawValue, status: 200),
                      started: .now)
    }

    private func send(_ answer: Answer, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        metrics.servedBytes.increment(by: Int64(answer.body?.readableBytes ?? 0))
        answer.metrics.requests.increment()
        answer.metrics.duration.record((ContinuousClock.now - answer.started).seconds)
    }

    /// The item and file of `/api/media/:id/stream` (file nil) or `/api/media/:id/stream/<rung>/<file>`, written
    /// plainly (no query, no percent-encoding, only `StreamFiles.isSafe` components); nil for anything else.
    static func streamTarget(_ path: String?) -> (id: Int64, relative: String?)? {
        guard var path else { return nil }
        return path.withUTF8(streamTarget(in:))
    }

    private static let mediaPrefix = Array("/api/media/".utf8)
    private static let streamSuffix = Array("/stream".utf8)

    private static func streamTarget(in bytes: UnsafeBufferPointer<UInt8>) -> (id: Int64, relative: String?)? {
        guard bytes.starts(with: mediaPrefix) else { return nil }
        var index = mediaPrefix.count
        var id: Int64 = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - mediaPrefix.count < 18 {
            id = id * 10 + Int64(bytes[index] - 0x30)
            index += 1
        }
        guard id > 0, bytes[index...].starts(with: streamSuffix) else { return nil }
        index += streamSuffix.count
        if index == bytes.count { return (id, nil) }
        guard bytes[index] == 0x2f else { return nil }
        let relative = UnsafeBufferPointer(rebasing: bytes[(index + 1)...])
        let components = relative.split(separator: 0x2f, maxSplits: 3, omittingEmptySubsequences: false)
        guard components.count <= 3, components.allSatisfy(StreamFiles.isSafeComponent) else { return nil }
        return (id, String(decoding: relative, as: UTF8.self))
    }
}

extension StreamFastPath {
    /// Puts a `StreamFastPath` after Hummingbird's connection state handler, then steps aside. Hummingbird adds
    /// its extra handlers before that handler, which it adds once it knows a connection is not a WebSocket; the
    /// installer waits there for the connection's first request, by which time the state handler is in place.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart

        private let make: () -> StreamFastPath

        init(make: @escaping () -> StreamFastPath) {
            self.make = make
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let pipeline = context.pipeline.syncOperations
            if let state = try? pipeline.handler(type: HTTPConnectionStateHandler.self) {
                try? pipeline.addHandler(make(), position: .after(state))
            }
            context.fireChannelRead(data)
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}
