import Hummingbird
import VODCatalog

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
        var object = OrderedJSONObject()
        object.add("id", event.id)
        object.add("type", event.type.rawValue)
        object.add("created_at", event.createdAt)
        object.add("media_id", event.mediaID)
        object.addRaw("data", media.json)
        return object.json
    }
}
