import Logging
import ServiceLifecycle
import VODCatalog
import VODService

/// Keeps this node's `TitleCaches` true to the catalog that every API node shares: it follows the event log
/// (`EventFeed`, which polls it every 250 ms) and forgets a title once any node deleted it, changed its
/// visibility, title or captions (`media.updated`), or started or failed a transcode of it (a retry).
struct CacheInvalidation: Service {
    let catalog: any EventLog
    let feed: EventFeed
    let caches: TitleCaches
    let logger: Logger

    /// How long it waits before following the log again after the catalog failed.
    static let retryDelay: Duration = .seconds(1)

    /// The events after which what a node holds of the title may be wrong.
    static let invalidating: Set<MediaEventType> = [.deleted, .updated, .processing, .failed]

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var lastSeen: Int64?
            while !Task.isCancelled {
                do {
                    if lastSeen == nil { lastSeen = try await catalog.lastEventID() }
                    let subscription = try await feed.subscribe(after: lastSeen, mediaID: nil)
                    defer { subscription.end() }
                    for await case .event(let event) in subscription.deliveries {
                        lastSeen = event.id
                        if Self.invalidating.contains(event.type) { forget(event) }
                    }
                } catch {
                    guard !Task.isCancelled else { return }
                    logger.warning("following the event log for cache invalidation failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: Self.retryDelay)
            }
        }
    }

    /// Forgets the title of `event`, its thumbnails too when the item it records can be read.
    private func forget(_ event: MediaEvent) {
        caches.forget(id: event.mediaID, folder: (try? event.item)?.hlsPath)
    }
}
