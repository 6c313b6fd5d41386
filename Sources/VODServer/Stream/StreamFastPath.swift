import Foundation
import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers the requests players make most, on the connection's own event loop and before Hummingbird, on a
/// connection kept alive: a GET or HEAD of a stream playlist already held in memory (`StreamFiles.immediateFile`),
/// with no range and no condition, and a GET or HEAD of a segment or other file on disk whose lookup is cached,
/// with or without a range or condition, its body sent from the open file by the kernel (`StreamFastPath+file`).
/// Its answer is the one the route would give, byte for byte but for `Date`, and it is counted in the same
/// request metrics. Everything else (an unsatisfiable range among them), and every request while an earlier one
/// is still with Hummingbird (so that pipelined answers keep their order), goes on to Hummingbird.
///
/// A file's body is written below the HTTPTypes codec, to the context of NIO's `HTTPResponseEncoder`, whose
/// `Content-Length` framing passes it to the socket as it is; writes on one event loop keep their order, so it
/// goes out between the head and the end written through the pipeline. Without that encoder (a pipeline this
/// handler does not know) files go on to the route, which copies them.
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
        let body: Body?
        let metrics: ServiceMetrics.RequestHandles
        let started: ContinuousClock.Instant
    }

    private let files: StreamFiles
    private let metrics: ServiceMetrics
    private let serverName: String
    /// Requests handed on to Hummingbird whose answers have not ended.
    private var handedOn = 0
    private var answer: Answer?
    /// Whether a request's head has been read and its end not yet.
    private var readingRequest = false
    /// The context of the HTTP/1 encoder, below which a file's body is written; nil: files go to the route.
    private var encoder: ChannelHandlerContext?

    init(files: StreamFiles, metrics: ServiceMetrics, serverName: String) {
        self.files = files
        self.metrics = metrics
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        answer?.body?.close()
        answer = nil
    }

    /// Whether no request is in progress: every request read to its end, and answered.
    var isIdle: Bool { !readingRequest && handedOn == 0 && answer == nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            readingRequest = true
            if handedOn == 0, let answer = immediateAnswer(to: request) {
                self.answer = answer
            } else {
                handedOn += 1
                context.fireChannelRead(data)
            }
        case .body:
            if answer == nil { context.fireChannelRead(data) }
        case .end:
            readingRequest = false
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
              let (id, relative, isMaster) = Self.streamTarget(request.path),
              let file = files.immediateFile(id: id, relative: relative) else { return nil }
        let status: HTTPResponse.Status
        var headers: HTTPFields
        let body: Body?
        switch file.content {
        case .memory:
            guard let immediate = file.immediateResponse(to: request) else { return nil }
            (status, headers, body) = (immediate.head.status, immediate.head.headerFields, immediate.body.map(Body.bytes))
        case .disk(let path):
            guard request.method == .get || request.method == .head else { return nil }
            if !file.isLive, let bytes = files.segments.heldBytes(of: path, size: file.size) {
                guard let answer = Self.heldAnswer(to: request, file: file, bytes: bytes) else { return nil }
                (status, headers, body) = answer
            } else {
                guard let encoder, let answer = Self.fileAnswer(to: request, file: file, path: path, encoder: encoder) else { return nil }
                (status, headers, body) = answer
            }
        }
        headers[.date] = HTTPDate.now()
        headers[.server] = serverName
        let route = isMaster ? MediaController.masterRoute : MediaController.streamFileRoute
        return Answer(head: HTTPResponse(status: status, headerFields: headers), body: body,
                      metrics: metrics.requests(route: route, method: request.method.rawValue, status: status.code), started: .now)
    }

    private func send(_ answer: Answer, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        switch answer.body {
        case .bytes(let bytes): context.write(wrapOutboundOut(.body(bytes)), promise: nil)
        case .file(let region, let encoder):
            metrics.segmentsSentFromFile.increment()
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in try? region.fileHandle.close() }
            encoder.write(NIOAny(IOData.fileRegion(region)), promise: written)
        case nil: break
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        metrics.servedBytes.increment(by: Int64(answer.body?.count ?? 0))
        answer.metrics.requests.increment()
        answer.metrics.duration.record((ContinuousClock.now - answer.started).seconds)
    }

    /// The item and file of `/api/media/:id/stream` (file nil), `/api/media/:id/stream/` (`master.m3u8`, whose
    /// URIs resolve from there) or `/api/media/:id/stream/<rung>/<file>`, written plainly (no query, no
    /// percent-encoding, only `StreamFiles.isSafe` components), and whether the router takes the path for the
    /// master's route (the first two); nil for anything else.
    static func streamTarget(_ path: String?) -> (id: Int64, relative: String?, isMaster: Bool)? {
        guard var path else { return nil }
        return path.withUTF8(streamTarget(in:))
    }

    private static let mediaPrefix = Array("/api/media/".utf8)
    private static let streamSuffix = Array("/stream".utf8)

    private static func streamTarget(in bytes: UnsafeBufferPointer<UInt8>) -> (id: Int64, relative: String?, isMaster: Bool)? {
        guard bytes.starts(with: mediaPrefix) else { return nil }
        var index = mediaPrefix.count
        var id: Int64 = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - mediaPrefix.count < 18 {
            id = id * 10 + Int64(bytes[index] - 0x30)
            index += 1
        }
        guard id > 0, bytes[index...].starts(with: streamSuffix) else { return nil }
        index += streamSuffix.count
        if index == bytes.count { return (id, nil, true) }
        guard bytes[index] == 0x2f else { return nil }
        if index + 1 == bytes.count { return (id, StreamFiles.masterFile, true) }
        let relative = UnsafeBufferPointer(rebasing: bytes[(index + 1)...])
        let components = relative.split(separator: 0x2f, maxSplits: 3, omittingEmptySubsequences: false)
        guard components.count <= 3, components.allSatisfy(StreamFiles.isSafeComponent) else { return nil }
        return (id, String(decoding: relative, as: UTF8.self), false)
    }
}

extension StreamFastPath {
    /// Puts a `StreamFastPath` after Hummingbird's connection state handler and its `StreamRawPath` before the
    /// HTTP/1 codec, then steps aside. Hummingbird adds its extra handlers before that handler, which it adds
    /// once it knows a connection is not a WebSocket; the installer waits there for the connection's first
    /// request, by which time the state handler is in place.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart

        private let make: () -> (StreamFastPath, StreamRawPath)

        init(make: @escaping () -> (StreamFastPath, StreamRawPath)) {
            self.make = make
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let pipeline = context.pipeline.syncOperations
            if let state = try? pipeline.handler(type: HTTPConnectionStateHandler.self) {
                let (fastPath, rawPath) = make()
                try? pipeline.addHandler(fastPath, position: .after(state))
                // Before the encoder and the decoder, which come in that order: its answers are bytes for the socket.
                if let encoder = try? pipeline.handler(type: HTTPResponseEncoder.self) {
                    try? pipeline.addHandler(rawPath, position: .before(encoder))
                }
            }
            context.fireChannelRead(data)
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}
