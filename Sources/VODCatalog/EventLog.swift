/// An append-only log of what happened to items, read by status streams and webhooks.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol EventLog: Sendable {
    /// Records that `type` happened to `item` (as it is right after) and returns the entry; ids grow in commit
    /// order.
    func appendEvent(_ type: MediaEventType, item: MediaItem) async throws -> MediaEvent
    /// The events after `id`, oldest first, at most `limit`; with `mediaID`, only that item's.
    func events(after id: Int64, mediaID: Int64?, limit: Int) async throws -> [MediaEvent]
    /// The id of the newest event, 0 when there is none.
    func lastEventID() async throws -> Int64
    /// Removes the events older than `seconds` and the deliveries done or given up on as old; returns how many
    /// events went.
    func pruneEvents(olderThan seconds: Double) async throws -> Int
}
