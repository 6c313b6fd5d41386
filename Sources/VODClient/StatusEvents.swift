import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import VODModel

/// The status events of every title, or of one, as they happen: an endless `AsyncSequence` read from the
/// server's Server-Sent Events stream. When the stream drops, it reconnects with `Last-Event-ID`, so no event is
/// missed or repeated; it throws after `VODClient.Options.maximumRetries` failed connections in a row, and ends
/// when its task is cancelled.
public struct StatusEvents: AsyncSequence, Sendable {
    /// Each element is one status event.
    public typealias Element = StatusEvent

    let client: VODClient
    /// `/api/events` or `/api/media/:id/events`.
    let path: String
    /// The event after which to start; nil starts with the next one.
    let lastEventID: Int64?

    /// An iterator that connects at its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, url: client.url(path), lastEventID: lastEventID)
    }

    /// Reads the stream, reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: VODClient
        let url: String
        var lastEventID: Int64?
        private var body: HTTPClientResponse.Body.AsyncIterator?
        private var parser = ServerSentEventParser()
        private var failures = 0

        init(client: VODClient, url: String, lastEventID: Int64?) {
            self.client = client
            self.url = url
            self.lastEventID = lastEventID
        }

        /// The next event.
        public mutating func next() async throws -> StatusEvent? {
            while true {
                if let message = parser.next() {
                    guard let event = try Self.statusEvent(message) else { continue }
                    lastEventID = event.id
                    return event
                }
                if body == nil { try await reconnect() }
                do {
                    if let chunk = try await body?.next() {
                        parser.append(chunk.readableBytesView)
                        continue
                    }
                    try Task.checkCancellation()
                } catch let error as CancellationError {
                    throw error
                } catch {
                    try count(error)
                }
                body = nil
                try await Task.sleep(for: delay)
            }
        }

        /// Opens the stream now, resuming after `lastEventID`, rather than at the first `next()`; once it
        /// returns, the server is subscribed, and every later event will come.
        mutating func connect() async throws {
            var request = try client.request(.GET, url: url, headers: [("Accept", "text/event-stream")])
            if let lastEventID { request.headers.add(name: "Last-Event-ID", value: "\(lastEventID)") }
            let response = try await client.httpClient.execute(request, deadline: .now() + .init(client.options.requestTimeout))
            guard response.status == .ok else {
                try VODClient.check(response.status, body: try await response.body.collect(upTo: 1 << 20))
                throw VODClientError.invalidResponse("the event stream answered \(response.status.code)")
            }
            body = response.body.makeAsyncIterator()
            parser = ServerSentEventParser()
            failures = 0
        }

        /// Connects again until it works or `maximumRetries` attempts have failed; a refusal (a 4xx) is final.
        private mutating func reconnect() async throws {
            while true {
                do {
                    return try await connect()
                } catch let error as VODClientError where error.status.map({ $0 < 500 }) ?? true {
                    throw error
                } catch let error as CancellationError {
                    throw error
                } catch {
                    try count(error)
                    try await Task.sleep(for: delay)
                }
            }
        }

        /// Counts a failure; throws `error` when there have been too many in a row.
        private mutating func count(_ error: any Error) throws {
            failures += 1
            if failures > client.options.maximumRetries { throw error }
        }

        /// The wait before reconnecting: what the stream asked for, else the client's retry delay.
        private var delay: Duration {
            parser.retry.map { .milliseconds($0) } ?? client.options.retryDelay
        }

        /// The status event a message carries; nil for messages of other kinds.
        private static func statusEvent(_ message: ServerSentEvent) throws -> StatusEvent? {
            guard message.type.hasPrefix("media.") else { return nil }
            do {
                return try JSONDecoder().decode(StatusEvent.self, from: Data(message.data.utf8))
            } catch {
                throw VODClientError.invalidResponse("the event \(message.id ?? "") is not a status event: \(error)")
            }
        }
    }
}
