/// Where status events are POSTed, how they are signed, and how long failed deliveries are retried.
public struct WebhookPolicy: Sendable {
    /// The receivers; none turns webhooks off.
    public var urls: [String]
    /// The HMAC-SHA256 key of the `Vod-Signature` header; unsigned without one.
    public var secret: String?
    /// The wait before the first retry; each later one waits twice as long as the one before, up to an hour.
    public var firstRetryDelay: Double
    /// How long after its event a delivery is retried before it is given up on, in seconds.
    public var retryFor: Double

    public init(urls: [String] = [], secret: String? = nil, firstRetryDelay: Double = 10, retryFor: Double = 24 * 3600) {
        self.urls = urls
        self.secret = secret
        self.firstRetryDelay = firstRetryDelay
        self.retryFor = retryFor
    }

    /// The longest wait between two attempts.
    static let longestRetryDelay: Double = 3600

    /// The wait after failed attempt number `attempt` (1 for the first), or nil when the next attempt would come
    /// more than `retryFor` after the event, `age` seconds ago.
    func retryDelay(afterAttempt attempt: Int, age: Double) -> Double? {
        let delay = min(firstRetryDelay * Double(1 << min(attempt - 1, 20)), Self.longestRetryDelay)
        return age + delay > retryFor ? nil : delay
    }
}
