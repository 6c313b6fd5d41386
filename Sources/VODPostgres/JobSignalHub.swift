import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Listens on one channel with one connection of its own, for as long as anyone subscribes, and passes each
/// notification to every subscriber. A lost connection is opened again after a pause that doubles up to 5 s;
/// subscribers are also woken then, since a notification may have been missed meanwhile.
final class JobSignalHub: Sendable {
    private struct State {
        var subscribers: [UUID: AsyncStream<Void>.Continuation] = [:]
        var listener: Task<Void, Never>?
        var stopped = false
    }

    private let client: PostgresClient
    private let channel: String
    private let logger: Logger
    private let state = Mutex(State())

    init(client: PostgresClient, channel: String, logger: Logger) {
        self.client = client
        self.channel = channel
        self.logger = logger
    }

    /// A stream that yields whenever the channel is notified.
    func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        state.withLock { state in
            guard !state.stopped else { return continuation.finish() }
            state.subscribers[id] = continuation
            if state.listener == nil { state.listener = Task { await self.listen() } }
        }
        return stream
    }

    /// Ends every subscription and the listening connection.
    func stop() {
        let (subscribers, listener) = state.withLock { state in
            state.stopped = true
            defer { state.subscribers = [:] }
            return (Array(state.subscribers.values), state.listener)
        }
        subscribers.forEach { $0.finish() }
        listener?.cancel()
    }

    private func wake() {
        state.withLock { Array($0.subscribers.values) }.forEach { $0.yield() }
    }

    private func listen() async {
        var pause = Duration.milliseconds(250)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        pause = .milliseconds(250)
                        for try await _ in notifications { wake() }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.notice("listening for jobs failed; reconnecting", metadata: ["error": "\(String(reflecting: error))"])
            }
            wake()
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }
}
