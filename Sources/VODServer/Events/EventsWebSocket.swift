import Foundation
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import VODService

/// `GET /api/ws`: the status events of `GET /api/events` over a WebSocket, one JSON text message each, for
/// clients that expect events that way. `?last_event_id=` resumes after an event and `?media_id=` keeps one
/// item's, as with SSE; a private title's events need an API key or, with `media_id`, its `?token=`
/// (`EventAccess`). The socket closes at graceful shutdown, and clients reconnect.
struct EventsWebSocket: Sendable {
    let feed: EventFeed
    let renderer: EventRenderer
    let publicURL: String?
    /// The event streams open, SSE ones included: an upgrade takes a place, and is declined without one
    /// (`FirstHeadGuard` answers it 503 first when it sees every place taken).
    let subscribers: ConnectionSlots
    let access: EventAccess

    /// The path it answers on.
    static let path = "/api/ws"

    /// Upgrades requests for `path`; every other request stays HTTP.
    @Sendable func shouldUpgrade(
        _ request: HTTPRequest, channel: any Channel, logger: Logger
    ) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let target = request.path, let components = URLComponents(string: target), components.path == Self.path else {
            return .dontUpgrade
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        guard let lastEventID = Self.number(query["last_event_id"]), let mediaID = Self.number(query["media_id"]) else {
            return .dontUpgrade
        }
        guard let slot = try? subscribers.take() else { return .dontUpgrade }
        let audience = await access.audience(request.headerFields, token: query["token"], mediaID: mediaID)
        let subscription = try await feed.subscribe(after: lastEventID, mediaID: mediaID)
        let baseURL = request.baseURL(publicURL: publicURL)
        let renderer = self.renderer
        return .upgrade([:]) { inbound, outbound, _ in
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await delivery in subscription.deliveries {
                            guard case .event(let event) = delivery, audience.sees(event) else { continue }
                            try await outbound.write(.text(try renderer.json(of: event, baseURL: baseURL)))
                        }
                    }
                    for try await _ in inbound {}
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                subscription.end()
            }
            withExtendedLifetime(slot) {}
        }
    }

    /// A missing parameter is `.some(nil)`; one that is not a whole number, nil.
    private static func number(_ value: String?) -> Int64?? {
        guard let value else { return .some(nil) }
        guard let number = Int64(value), number >= 0 else { return nil }
        return .some(number)
    }
}
