import Hummingbird
import VODCatalog
import VODModel

/// A status event as clients receive it, over SSE, WebSocket and webhooks alike:
/// `{"id": 42, "type": "media.ready", "created_at": "…", "media_id": 7, "data": {the media JSON}}`.
struct EventMessage {
    let event: MediaEvent
    /// The media JSON of the item as it was right after the event, with URLs under the reader's base URL.
    let media: MediaResponse

    init(_ event: MediaEvent, baseURL: String, storedJSON: StoredJSONCache) throws {
        self.event = event
        let item = try event.item
        media = MediaResponse(item: item, streamURL: "\(baseURL)/api/media/\(item.id)/stream", stored: storedJSON.fields(of: item))
    }

    var json: String {
        typealias Key = StatusEvent.CodingKeys
        var object = OrderedJSONObject()
        object.add(Key.id, event.id)
        object.add(Key.type, event.type.rawValue)
        object.add(Key.createdAt, event.createdAt)
        object.add(Key.mediaID, event.mediaID)
        object.addRaw(Key.media, media.json)
        return object.json
    }
}
