/// Where a webhook delivery stands.
public enum WebhookDeliveryStatus: String, Sendable, Codable {
    /// Not yet answered with a 2xx; tried again at `WebhookDelivery.nextAttemptAt`.
    case pending
    /// A 2xx answered it.
    case delivered
    /// Given up on after retrying for the longest time allowed.
    case failed
}

/// One event to POST to one webhook URL: a row of the catalog's outbox, so that a restart loses none.
public struct WebhookDelivery: Sendable, Equatable {
    public var id: Int64
    public var url: String
    public var event: MediaEvent
    public var status: WebhookDeliveryStatus
    /// How many times it was sent.
    public var attempts: Int
    /// When it is next due, in Unix seconds.
    public var nextAttemptAt: Double
    /// The HTTP status of the last attempt, when one came back.
    public var lastStatusCode: Int?
    /// Why the last attempt failed, in words.
    public var lastError: String?
    /// When it was queued and when it last changed, in the form of `MediaItem.createdAt`.
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: Int64, url: String, event: MediaEvent, status: WebhookDeliveryStatus, attempts: Int, nextAttemptAt: Double,
        lastStatusCode: Int?, lastError: String?, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.url = url
        self.event = event
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatusCode = lastStatusCode
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension WebhookDelivery {
    /// The query both catalogs read deliveries with: each row of `webhook_deliveries` joined with its event.
    public static let selectSQL = """
        SELECT webhook_deliveries.*, events.type AS event_type, events.media_id, events.item,
            events.created_at AS event_created_at
        FROM webhook_deliveries JOIN events ON events.id = webhook_deliveries.event_id
        """
}

/// The result of sending a delivery once.
public struct WebhookAttempt: Sendable, Equatable {
    /// What becomes of the delivery.
    public enum Outcome: Sendable, Equatable {
        /// A 2xx came back: done.
        case delivered
        /// It failed; send it again `after` seconds from now.
        case retry(after: Double)
        /// It failed for the last time.
        case failed
    }

    public var outcome: Outcome
    /// The HTTP status that came back, if any.
    public var statusCode: Int?
    /// Why it failed, if it did.
    public var error: String?

    public init(outcome: Outcome, statusCode: Int?, error: String?) {
        self.outcome = outcome
        self.statusCode = statusCode
        self.error = error
    }
}
