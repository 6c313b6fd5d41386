/// How much of the server anyone on the network may hold at once, each answered past its bound rather than
/// queued: event subscribers (Server-Sent Events and WebSocket together) and uploads in progress get 503 with
/// `Retry-After`, and a multipart form with too many or too long fields besides the file gets 413.
public struct ConnectionLimits: Sendable, Equatable {
    /// Event streams open at once, `GET /api/events`, `GET /api/media/:id/events` and `GET /api/ws` together.
    public var eventSubscribers: Int
    /// Upload bodies being received at once, `POST /api/media` and `PATCH /api/uploads/:id` together.
    public var uploads: Int
    /// Fields of a multipart upload besides the file (`title`, `description`, `visibility` and any others).
    public var formFields: Int
    /// Bytes of one such field.
    public var formFieldBytes: Int

    /// Limits with the given bounds; by default 512 subscribers, 16 uploads, 16 fields of 64 KiB.
    public init(eventSubscribers: Int = 512, uploads: Int = 16, formFields: Int = 16, formFieldBytes: Int = 64 * 1024) {
        self.eventSubscribers = eventSubscribers
        self.uploads = uploads
        self.formFields = formFields
        self.formFieldBytes = formFieldBytes
    }
}
