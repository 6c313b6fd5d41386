import Hummingbird
import NIOCore
import ServiceLifecycle
import VODCatalog
import VODService

/// `GET /api/events` and `GET /api/media/:id/events`: status events as Server-Sent Events streams.
///
/// A client that reconnects with `Last-Event-ID` (or `?last_event_id=`, for the first connection) gets every
/// event after that one, then the new ones; without it, the new ones only. A comment line keeps the stream
/// alive every 15 s of silence. Streams end at graceful shutdown, and clients reconnect. A private title's events
/// go only to readers with an API key or, on its own feed, its playback token (`EventAccess`); its own feed
/// refuses other readers with 403.
struct EventsController: Sendable {
    let feed: EventFeed
    let catalog: any MediaStore
    let renderer: EventRenderer
    let publicURL: String?
    /// The event streams open, WebSocket ones included; past the bound a stream gets 503.
    let subscribers: ConnectionSlots
    let access: EventAccess

    func addRoutes(to api: RouterGroup<VODRequestContext>) {
        api.get("events") { request, context in try await stream(request, mediaID: nil, channel: context.channel) }
        api.get("media/:id/events") { request, context in
            let id = try MediaController.id(context)
            let item = try await catalog.media(id: id)
            if item == nil, try Self.lastEventID(request) == nil { throw APIError.mediaNotFound }
            if let item, item.isPrivate {
                _ = try await PlaybackGrant.check(
                    request.headers, token: Self.token(request), id: id, visibility: .private,
                    tokens: access.tokens, protection: access.protection
                )
            }
            return try await stream(request, mediaID: id, channel: context.channel)
        }
    }

    /// A stream on `channel`, which ends when the client goes away: at once, not at the next write, so that its
    /// place among the `subscribers` is free again.
    private func stream(_ request: Request, mediaID: Int64?, channel: any Channel) async throws -> Response {
        let slot = try subscribers.take()
        let audience = await access.audience(request.headers, token: Self.token(request), mediaID: mediaID)
        let subscription = try await feed.subscribe(after: try Self.lastEventID(request), mediaID: mediaID)
        // The place is free once the client has gone, whatever the stream's writer still has to finish.
        channel.triggerUserOutboundEvent(EventStreamCloseWatch.Arm(on: true), promise: nil)
        channel.closeFuture.whenComplete { _ in
            subscription.end()
            slot.release()
        }
        let baseURL = request.baseURL(publicURL: publicURL)
        let renderer = self.renderer
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache", .accelBuffering: "no",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            try await withGracefulShutdownHandler {
                for await delivery in subscription.deliveries {
                    switch delivery {
                    case .event(let event) where audience.sees(event):
                        try await writer.write(ByteBuffer(string: try renderer.serverSentEvent(of: event, baseURL: baseURL)))
                    case .keepAlive:
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    case .event:
                        continue
                    }
                }
            } onGracefulShutdown: {
                subscription.end()
            }
            try await writer.finish(nil)
            channel.triggerUserOutboundEvent(EventStreamCloseWatch.Arm(on: false), promise: nil)
            withExtendedLifetime(slot) {}
        })
    }

    /// The playback token of the `token` parameter.
    static func token(_ request: Request) -> String? {
        request.uri.queryParameters["token"].map(String.init)
    }

    /// The event a reconnecting client saw last: the `Last-Event-ID` header, else the `last_event_id` parameter.
    static func lastEventID(_ request: Request) throws -> Int64? {
        guard let value = request.headers[.lastEventID] ?? request.uri.queryParameters["last_event_id"].map(String.init)
        else { return nil }
        guard let id = Int64(value), id >= 0 else {
            throw APIError.badRequest("Last-Event-ID must be the id of an event, a whole number")
        }
        return id
    }
}

extension HTTPFields.Element.Name {
    /// `Last-Event-ID`: the id of the last event a reconnecting Server-Sent Events client received.
    static var lastEventID: Self { Self("Last-Event-ID")! }
    /// `X-Accel-Buffering`: "no" asks a proxy in front (nginx) to pass a stream on as it comes.
    static var accelBuffering: Self { Self("X-Accel-Buffering")! }
}
