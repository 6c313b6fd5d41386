import HTTPTypes
import NIOCore

/// Answers the plainest requests players repeat most, below the HTTP/1 codec: on a kept-alive connection with no
/// request in progress, a lone `GET` or `HEAD` of a stream file whose lookup is cached (`StreamFiles.immediateFile`),
/// asking for no range, no condition and no close, is read from the connection's bytes and answered with a head
/// built once per file (`StreamFile.RawHeads`) and the `Date` and `Server` fields, byte for byte what
/// `StreamFastPath` would send, counted in the same request metrics. The body is a playlist's bytes, or a region
/// of the segment's file that the kernel sends (`sendfile`), opened now and sent only when the open file still has
/// the ETag of the head (a file renamed over since its lookup goes on to the decoder).
///
/// Every other read goes on to the HTTP/1 decoder as it came: a request this does not take, several requests or
/// part of one in one read, every read while the decoder may hold part of a request or `StreamFastPath` has one in
/// progress, and one request each half idle timeout, so that Hummingbird's idle timer, which sees only the
/// requests that pass the codec, never takes a busy connection for an idle one. Neither the decoder nor the
/// encoder sees the requests answered here, so the encoder's queue of request methods (which frames the answers to
/// `HEAD`) stays in step with the requests it does see.
final class StreamRawPath: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let files: StreamFiles
    private let metrics: ServiceMetrics
    private let serverField: [UInt8]
    /// The handler after the codec, which knows whether a request is in progress.
    private let fastPath: StreamFastPath
    /// Whether everything handed to the decoder ended with a request's end, so that the next read starts one.
    /// False at first: the reader is added while the decoder reads the connection's first request.
    private var decoderAtBoundary = false
    /// Half the connection's idle timeout, and when a read last went on to the decoder.
    private let codecInterval: Duration?
    private var lastPassed = ContinuousClock.now

    init(files: StreamFiles, metrics: ServiceMetrics, serverName: String, idleTimeout: Duration?, fastPath: StreamFastPath) {
        codecInterval = idleTimeout.map { $0 / 2 }
        self.files = files
        self.metrics = metrics
        serverField = Array("\r\nServer: \(serverName)\r\n\r\n".utf8)
        self.fastPath = fastPath
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        let now = ContinuousClock.now
        if decoderAtBoundary, fastPath.isIdle, codecInterval.map({ now - lastPassed < $0 }) ?? true,
           let request = RawRequest(bytes), let answer = answer(to: request, started: now) {
            send(answer, context: context)
            return
        }
        lastPassed = now
        context.fireChannelRead(data)
        decoderAtBoundary = RawRequest.endsAtHeadEnd(bytes) && fastPath.isIdle
    }

    /// The metrics of an answer of each kind (the master or another file, GET or HEAD), looked up once.
    private var answerHandles: [Int: ServiceMetrics.RequestHandles] = [:]

    private func handles(master: Bool, isHead: Bool) -> ServiceMetrics.RequestHandles {
        let kind = (master ? 2 : 0) + (isHead ? 1 : 0)
        if let known = answerHandles[kind] { return known }
        let handles = metrics.requests(route: master ? MediaController.masterRoute : MediaController.streamFileRoute,
                                       method: isHead ? "HEAD" : "GET", status: 200)
        answerHandles[kind] = handles
        return handles
    }

    /// An answer below the codec: its head with, for a playlist, its body; then a segment's file region.
    private struct Answer {
        let head: ByteBuffer
        let file: FileRegion?
    }

    /// The body of an answer: a playlist's bytes, copied after the head, or a region of a segment's open file,
    /// which the kernel sends.
    private enum Body {
        case copied(ByteBuffer)
        case file(FileRegion)

        var count: Int {
            switch self {
            case .copied(let bytes): bytes.readableBytes
            case .file(let region): region.readableBytes
            }
        }
    }

    private func send(_ answer: Answer, context: ChannelHandlerContext) {
        guard let region = answer.file else { return context.writeAndFlush(wrapOutboundOut(answer.head), promise: nil) }
        context.write(wrapOutboundOut(answer.head), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in try? region.fileHandle.close() }
        context.writeAndFlush(NIOAny(IOData.fileRegion(region)), promise: written)
    }

    private func answer(to request: RawRequest, started: ContinuousClock.Instant) -> Answer? {
        guard let (id, relative, isMaster) = StreamFastPath.streamTarget(request.path),
              let file = files.immediateFile(id: id, relative: relative), let heads = file.rawHeads,
              let (head, body) = content(of: file, heads: heads, for: request) else { return nil }
        let date = HTTPDate.now()
        let copied = if case .copied(let bytes) = body { bytes.readableBytes } else { 0 }
        var bytes = ByteBufferAllocator().buffer(capacity: head.count + date.utf8.count + serverField.count + copied)
        bytes.writeBytes(head)
        bytes.writeString(date)
        bytes.writeBytes(serverField)
        var sent: FileRegion?
        switch body {
        case .copied(let playlist): bytes.writeImmutableBuffer(playlist)
        case .file(let region):
            sent = region
            metrics.segmentsSentFromFile.increment()
        }
        let handles = handles(master: isMaster, isHead: request.isHead)
        metrics.servedBytes.increment(by: Int64(body.count))
        metrics.answersBelowCodec.increment()
        handles.requests.increment()
        handles.duration.record((ContinuousClock.now - started).seconds)
        return Answer(head: bytes, file: sent)
    }

    /// The head, up to `Date`, and the body of the answer to `request` for `file`: none for `HEAD`; a playlist's
    /// bytes, plain or gzipped as asked; a segment's open file, when it still has the ETag of the head (nil
    /// otherwise: the request goes on to the decoder). Never the segment cache's bytes: written from memory they
    /// went out at 0.68× the rate of the file sent by the kernel (1.35 MB, `wrk -t2 -c32`, 2 cores).
    private func content(of file: StreamFile, heads: StreamFile.RawHeads, for request: RawRequest)
        -> (head: [UInt8], body: Body)? {
        let none = Body.copied(ByteBuffer())
        switch file.content {
        case .memory(let plain, let gzipped):
            let (head, body) = request.acceptsGzip ? (heads.gzipped ?? heads.plain, gzipped ?? plain) : (heads.plain, plain)
            return (head, request.isHead ? none : .copied(body))
        case .disk(let path):
            if request.isHead { return (heads.plain, none) }
            guard let (handle, status) = StreamFastPath.openRegularFile(path) else { return nil }
            guard StreamFile.eTag(size: Int(status.size), modified: status.modified) == file.eTag else {
                try? handle.close()
                return nil
            }
            return (heads.plain, .file(FileRegion(fileHandle: handle, readerIndex: 0, endIndex: file.size)))
        }
    }
}

extension StreamFile {
    /// A file's answer to a plain GET up to its `Date` field: the status line and the fields of
    /// `immediateHeaders`, as the HTTP/1 encoder writes them, for `StreamRawPath`.
    struct RawHeads: Sendable {
        let plain: [UInt8]
        let gzipped: [UInt8]?

        init(_ headers: ImmediateHeaders) {
            plain = Self.head(headers.plain)
            gzipped = headers.gzipped.map(Self.head)
        }

        private static func head(_ fields: HTTPFields) -> [UInt8] {
            var text = "HTTP/1.1 200 OK\r\n"
            for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
            return Array((text + "Date: ").utf8)
        }
    }
}
