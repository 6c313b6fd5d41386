import Synchronization
import VODCatalog

/// Renders status events to their JSON once for every reader that shares a base URL: a thousand SSE clients
/// of one event then decode its item and write its media JSON once, not a thousand times.
///
/// Readers of one event all ask for it within moments of each other, so the few most recent renderings are
/// all that is kept.
final class EventRenderer: Sendable {
    private struct Key: Hashable {
        var eventID: Int64
        var baseURL: String
    }

    private let storedJSON: StoredJSONCache
    private let recent = Mutex<[Key: String]>([:])
    /// Renderings kept at most; past it the cache starts again empty.
    private static let capacity = 256

    init(storedJSON: StoredJSONCache) {
        self.storedJSON = storedJSON
    }

    /// The event's JSON (`EventMessage.json`), with URLs under `baseURL`.
    func json(of event: MediaEvent, baseURL: String) throws -> String {
        let key = Key(eventID: event.id, baseURL: baseURL)
        if let json = recent.withLock({ $0[key] }) { return json }
        let json = try EventMessage(event, baseURL: baseURL, storedJSON: storedJSON).json
        recent.withLock { recent in
            if recent.count >= Self.capacity { recent.removeAll(keepingCapacity: true) }
            recent[key] = json
        }
        return json
    }

    /// The event as one Server-Sent Events message: its id, for `Last-Event-ID`, its type, and the JSON.
    func serverSentEvent(of event: MediaEvent, baseURL: String) throws -> String {
        "id: \(event.id)\nevent: \(event.type.rawValue)\ndata: \(try json(of: event, baseURL: baseURL))\n\n"
    }
}
