/// A status event, as `GET /api/events`, `GET /api/media/:id/events`, `/api/ws` and webhooks carry it:
/// `{"id": 42, "type": "media.ready", "created_at": "…", "media_id": 7, "data": {the media JSON}}`.
public struct StatusEvent: Codable, Sendable, Equatable, Identifiable {
    /// The event's id: ids grow in the order events happen, and a reconnecting stream resumes after one.
    public var id: Int64
    /// What happened.
    public var type: MediaEventType
    /// When it happened, in the form of `Media.createdAt`.
    public var createdAt: String
    /// The item it happened to.
    public var mediaID: Int64
    /// The item as it was right after (`data` in the JSON).
    public var media: Media

    /// The keys of an event, in the order the server writes them.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, type
        case createdAt = "created_at"
        case mediaID = "media_id"
        case media = "data"
    }
}
