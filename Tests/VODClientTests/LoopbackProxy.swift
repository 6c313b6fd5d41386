import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on loopback in front of a server, which makes the faults a client must survive: requests answered
/// 404 as by a server without that endpoint, a request cut off mid-body, a response cut off mid-stream. Each
/// fault applies to requests whose request line starts with its prefix, such as `PATCH /api/uploads/`; a cut is
/// made once, to the first such request.
final class LoopbackProxy: Sendable {
    enum Fault: Sendable {
        /// Answered 404 without reaching the server.
        case notFound
        /// The connection is closed once this many bytes of the request have gone through.
        case cutRequest(afterBytes: Int)
        /// The connection is closed once this many bytes of the response have come back.
        case cutResponse(afterBytes: Int)
    }

    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    let port: Int
    private let state: ProxyState
    private let listener: Task<Void, any Error>

    /// The connections cut so far.
    var cuts: Int { state.cuts.withLock { $0 } }

    init(upstreamPort: Int, faults: [(prefix: String, fault: Fault)]) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
            }
        guard let port = server.channel.localAddress?.port else { throw ProxyFailure() }
        self.port = port
        let state = ProxyState(faults: faults)
        self.state = state
        let relay = Relay(upstreamPort: upstreamPort, state: state)
        listener = Task {
            try await server.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        group.addTask { await relay.serve(connection) }
                    }
                }
            }
        }
    }

    deinit { listener.cancel() }

    struct ProxyFailure: Error {}
}

/// The faults still to make, and the cuts made.
private final class ProxyState: Sendable {
    let faults: Mutex<[(prefix: String, fault: LoopbackProxy.Fault)]>
    let cuts = Mutex(0)

    init(faults: [(prefix: String, fault: LoopbackProxy.Fault)]) {
        self.faults = Mutex(faults)
    }

    /// The fault for a chunk that starts a request with a matching request line; a cut is made only once.
    func fault(for chunk: ByteBuffer) -> LoopbackProxy.Fault? {
        let start = String(decoding: chunk.readableBytesView.prefix(200), as: UTF8.self)
        return faults.withLock { faults in
            guard let index = faults.firstIndex(where: { start.hasPrefix($0.prefix) }) else { return nil }
            let fault = faults[index].fault
            if case .notFound = fault { return fault }
            faults.remove(at: index)
            return fault
        }
    }
}

/// The bytes a direction of a connection may still pass before it is cut; nil for no limit.
private final class Budget: Sendable {
    let bytes = Mutex<Int?>(nil)

    /// As much of `chunk` as the budget allows, and whether the connection is to be cut after it.
    func take(_ chunk: ByteBuffer) -> (allowed: ByteBuffer, cut: Bool) {
        bytes.withLock { bytes in
            guard let remaining = bytes else { return (chunk, false) }
            bytes = remaining - chunk.readableBytes
            guard chunk.readableBytes >= remaining else { return (chunk, false) }
            return (chunk.getSlice(at: chunk.readerIndex, length: remaining) ?? chunk, true)
        }
    }
}

/// What the proxy does with one connection.
private struct Relay: Sendable {
    let upstreamPort: Int
    let state: ProxyState

    /// Ends the relay of a connection, both ways.
    struct Cut: Error {}

    func serve(_ client: LoopbackProxy.Connection) async {
        do {
            let server = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: upstreamPort) { channel in
                    channel.eventLoop.makeCompletedFuture { try LoopbackProxy.Connection(wrappingChannelSynchronously: channel) }
                }
            try await client.executeThenClose { fromClient, toClient in
                try await server.executeThenClose { fromServer, toServer in
                    let request = Budget()
                    let response = Budget()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await chunk in fromClient {
                                switch state.fault(for: chunk) {
                                case .notFound:
                                    try await toClient.write(ByteBuffer(string: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
                                    continue
                                case .cutRequest(let bytes): request.bytes.withLock { $0 = bytes }
                                case .cutResponse(let bytes): response.bytes.withLock { $0 = bytes }
                                case nil: break
                                }
                                try await pass(chunk, through: request, to: toServer)
                            }
                        }
                        group.addTask {
                            for try await chunk in fromServer { try await pass(chunk, through: response, to: toClient) }
                        }
                        // When either side ends or a cut is made, the connection ends both ways.
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
            }
        } catch {
            return
        }
    }

    /// Writes what `budget` allows of `chunk`; throws `Cut` once the budget is spent.
    private func pass(_ chunk: ByteBuffer, through budget: Budget, to writer: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        let (allowed, cut) = budget.take(chunk)
        try await writer.write(allowed)
        guard cut else { return }
        state.cuts.withLock { $0 += 1 }
        throw Cut()
    }
}
