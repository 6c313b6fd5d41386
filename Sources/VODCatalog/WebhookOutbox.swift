/// The outbox of webhook deliveries, one per event and URL.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol WebhookOutbox: Sendable {
    /// Queues a delivery to each of `urls` of every event after the last one queued for it, in one
    /// transaction; a URL seen for the first time starts after the newest event. Returns how many were queued.
    func scheduleWebhookDeliveries(urls: [String]) async throws -> Int
    /// Leases up to `limit` pending deliveries that are due, oldest first, for `lease`; concurrent claims never
    /// take the same delivery.
    func claimWebhookDeliveries(worker: String, lease: Duration, limit: Int) async throws -> [WebhookDelivery]
    /// Records an attempt of a claimed delivery and releases its lease.
    func recordWebhookAttempt(_ delivery: WebhookDelivery, _ attempt: WebhookAttempt) async throws
    /// The most recently changed deliveries, newest first.
    func webhookDeliveries(limit: Int) async throws -> [WebhookDelivery]
}
