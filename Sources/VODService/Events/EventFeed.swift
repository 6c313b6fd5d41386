import Foundation
import Logging
import Synchronization
import VODCatalog

/// Reads the catalog's event log for this process's status streams: one reader however many streams listen,
/// which runs while anyone does, polls every `pollInterval` for the events of other processes and machines, and
/// is woken at once by those this process records.
package final class EventFeed: Sendable {
    /// What a subscriber receives.
    package enum Delivery: Sendable {
        case event(MediaEvent)
        /// Nothing happened for a while: the stream says it is alive.
        case keepAlive
    }

    /// One subscriber's stream of deliveries, and the way to end it early (at graceful shutdown).
    package struct Subscription: Sendable {
        /// The events, and keep-alives, in order.
        package let deliveries: AsyncStream<Delivery>
        /// Ends `deliveries`.
        package let end: @Sendable () -> Void
    }

    private struct State {
        var subscribers: [UUID: AsyncStream<Delivery>.Continuation] = [:]
        var reader: Task<Void, Never>?
    }

    /// The most events one subscriber may have waiting: a client that reads slower is cut off, and resumes from
    /// its `Last-Event-ID` without loss.
    static let backlogLimit = 2_000
    /// Events read from the catalog at a time.
    static let pageSize = 500

    let catalog: any EventLog
    let wakeups: JobWakeups
    let pollInterval: Duration
    let keepAliveInterval: Duration
    let logger: Logger
    private let state = Mutex(State())

    /// A feed of the events `events` records, and those other processes record in its catalog.
    package init(events: EventRecorder, pollInterval: Duration = .milliseconds(250), keepAliveInterval: Duration = .seconds(15), logger: Logger) {
        self.catalog = events.catalog
        self.wakeups = events.wakeups
        self.pollInterval = pollInterval
        self.keepAliveInterval = keepAliveInterval
        self.logger = logger
    }

    /// The events after `lastSeen` (the newest event when nil), then each new event as it comes, with a keep-alive
    /// after each `keepAliveInterval` of silence; only item `mediaID`'s when given. Events come once each, in
    /// order, none missed: those already in the log are read from it, and the live ones that repeat them are
    /// skipped.
    package func subscribe(after lastSeen: Int64?, mediaID: Int64?) async throws -> Subscription {
        var start = lastSeen ?? 0
        if lastSeen == nil { start = try await catalog.lastEventID() }
        let (live, liveContinuation) = AsyncStream<Delivery>.makeStream(bufferingPolicy: .bufferingOldest(Self.backlogLimit))
        let id = UUID()
        liveContinuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        state.withLock { state in
            state.subscribers[id] = liveContinuation
            if state.reader == nil { state.reader = Task { await self.read() } }
        }
        let catalog = self.catalog
        let keepAliveInterval = self.keepAliveInterval
        let (stream, continuation) = AsyncStream<Delivery>.makeStream(bufferingPolicy: .bufferingOldest(Self.backlogLimit))
        let forwarder = Task {
            var sent = start
            do {
                while true {
                    let page = try await catalog.events(after: sent, mediaID: mediaID, limit: Self.pageSize)
                    for event in page { continuation.yield(.event(event)) }
                    sent = page.last?.id ?? sent
                    if page.count < Self.pageSize { break }
                }
                let keepAlive = Task {
                    while !Task.isCancelled {
                        try await Task.sleep(for: keepAliveInterval)
                        liveContinuation.yield(.keepAlive)
                    }
                }
                defer { keepAlive.cancel() }
                for await delivery in live {
                    if case .event(let event) = delivery {
                        guard event.id > sent, mediaID == nil || event.mediaID == mediaID else { continue }
                        sent = event.id
                    }
                    if case .dropped = continuation.yield(delivery) { break }
                }
            } catch {}
            continuation.finish()
        }
        continuation.onTermination = { _ in
            forwarder.cancel()
            liveContinuation.finish()
        }
        return Subscription(deliveries: stream, end: { continuation.finish() })
    }

    private func unsubscribe(_ id: UUID) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }

    /// Passes each new event of the log to every subscriber, until none is left.
    private func read() async {
        var position: Int64?
        while true {
            let subscribers = state.withLock { state in
                if state.subscribers.isEmpty { state.reader = nil }
                return Array(state.subscribers.values)
            }
            guard !subscribers.isEmpty else { return }
            do {
                var after = position ?? 0
                if position == nil { after = try await catalog.lastEventID() }
                let page = try await catalog.events(after: after, mediaID: nil, limit: Self.pageSize)
                for continuation in subscribers {
                    for event in page {
                        if case .dropped = continuation.yield(.event(event)) {
                            continuation.finish()
                            break
                        }
                    }
                }
                position = page.last?.id ?? after
                if page.count == Self.pageSize { continue }
            } catch {
                logger.warning("reading the event log failed", metadata: ["error": "\(error)"])
            }
            await wakeups.sleep(upTo: pollInterval)
        }
    }
}
