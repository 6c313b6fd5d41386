import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import VODEngine
import VODCatalog

/// POSTs each status event to every webhook URL through the catalog's outbox, and keeps the event log to a week.
///
/// Deliveries are rows of the catalog: a restart, or a crash, loses none, and any number of servers can share the
/// work, since each claims its deliveries under a lease. A 2xx answer delivers one; anything else (another
/// status, a refused connection, no answer in 30 s) is tried again after a wait that doubles from
/// `WebhookPolicy.firstRetryDelay` up to an hour, until `WebhookPolicy.retryFor` after the event.
package struct EventDeliveryService: Service {
    let catalog: any WebhookOutbox & EventLog
    let policy: WebhookPolicy
    /// Woken when this process records an event.
    let wakeups: JobWakeups
    /// The body of an event's deliveries: the event's JSON, as status streams send it.
    let render: @Sendable (MediaEvent) throws -> String
    let logger: Logger
    /// This process's name on the leases of the deliveries it sends.
    let worker = "\(ProcessInfo.processInfo.hostName):\(getpid()):webhooks"

    /// Delivers the events of `catalog` as `policy` says, each with the body `render` writes; `wakeups` is woken
    /// when this process records an event.
    package init(
        catalog: any WebhookOutbox & EventLog, policy: WebhookPolicy, wakeups: JobWakeups,
        render: @escaping @Sendable (MediaEvent) throws -> String, logger: Logger
    ) {
        self.catalog = catalog
        self.policy = policy
        self.wakeups = wakeups
        self.render = render
        self.logger = logger
    }

    /// How long events are kept, for `Last-Event-ID` and webhooks still retrying.
    static let retention: Double = 7 * 24 * 3600
    /// How often the event log is pruned.
    static let pruneInterval = Duration.seconds(3600)
    /// Deliveries claimed, and sent in parallel, at a time.
    static let batchSize = 32
    /// How long an answer may take.
    static let timeout = TimeAmount.seconds(30)

    package func run() async throws {
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: Self.timeout)
            )
        )
        if !policy.urls.isEmpty {
            logger.info("webhooks on", metadata: ["urls": "\(policy.urls)", "signed": "\(policy.secret != nil)"])
        }
        // Graceful shutdown lets the deliveries in flight finish and record how they went, so that none keeps a
        // lease a restarted server would wait out.
        let stopping = CancellationFlag()
        await withGracefulShutdownHandler {
            await work(client, stopping: stopping)
        } onGracefulShutdown: {
            stopping.cancel()
            wakeups.wakeAll()
        }
        try await client.shutdown()
    }

    private func work(_ client: HTTPClient, stopping: CancellationFlag) async {
        var lastPrune: ContinuousClock.Instant?
        while !Task.isCancelled, !stopping.isCancelled {
            if lastPrune.map({ ContinuousClock.now - $0 > Self.pruneInterval }) ?? true {
                await prune()
                lastPrune = .now
            }
            guard !policy.urls.isEmpty else {
                await wakeups.sleep(upTo: .seconds(1))
                continue
            }
            var claimed: [WebhookDelivery] = []
            do {
                _ = try await catalog.scheduleWebhookDeliveries(urls: policy.urls)
                claimed = try await catalog.claimWebhookDeliveries(worker: worker, lease: .seconds(120), limit: Self.batchSize)
            } catch {
                logger.error("reading the webhook outbox failed", metadata: ["error": "\(error)"])
            }
            await withDiscardingTaskGroup { group in
                for delivery in claimed { group.addTask { await deliver(delivery, client: client) } }
            }
            if claimed.count < Self.batchSize { await wakeups.sleep(upTo: .seconds(1)) }
        }
    }

    /// Sends one delivery and records how it went.
    private func deliver(_ delivery: WebhookDelivery, client: HTTPClient) async {
        let attempt: WebhookAttempt
        do {
            let body = Array(try render(delivery.event).utf8)
            var request = HTTPClientRequest(url: delivery.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "vod-webhooks/1")
            request.headers.add(name: "Vod-Event-Id", value: "\(delivery.event.id)")
            request.headers.add(name: "Vod-Event-Type", value: delivery.event.type.rawValue)
            if let secret = policy.secret {
                let signature = WebhookSignature.sign(body, secret: secret, time: Int64(Date().timeIntervalSince1970))
                request.headers.add(name: WebhookSignature.header, value: signature)
            }
            request.body = .bytes(body)
            let response = try await client.execute(request, timeout: Self.timeout)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            let status = Int(response.status.code)
            attempt = (200..<300).contains(status)
                ? WebhookAttempt(outcome: .delivered, statusCode: status, error: nil)
                : failed(delivery, statusCode: status, error: "the receiver answered HTTP \(status)")
        } catch {
            attempt = failed(delivery, statusCode: nil, error: "\(error)")
        }
        do {
            try await catalog.recordWebhookAttempt(delivery, attempt)
        } catch {
            logger.error("recording a webhook attempt failed", metadata: ["delivery": "\(delivery.id)", "error": "\(error)"])
        }
        if attempt.outcome != .delivered {
            logger.warning("webhook delivery failed", metadata: [
                "url": "\(delivery.url)", "event": "\(delivery.event.id)", "attempt": "\(delivery.attempts + 1)",
                "error": "\(attempt.error ?? "")", "outcome": "\(attempt.outcome)",
            ])
        }
    }

    /// A failed attempt: retried later, or given up on when the next try would come too long after the event.
    private func failed(_ delivery: WebhookDelivery, statusCode: Int?, error: String) -> WebhookAttempt {
        let age = Self.date(delivery.event.createdAt).map { Date().timeIntervalSince($0) } ?? 0
        let outcome: WebhookAttempt.Outcome = policy.retryDelay(afterAttempt: delivery.attempts + 1, age: age)
            .map { .retry(after: $0) } ?? .failed
        return WebhookAttempt(outcome: outcome, statusCode: statusCode, error: error)
    }

    private func prune() async {
        do {
            let pruned = try await catalog.pruneEvents(olderThan: Self.retention)
            if pruned > 0 { logger.info("pruned old events", metadata: ["events": "\(pruned)"]) }
        } catch {
            logger.error("pruning the event log failed", metadata: ["error": "\(error)"])
        }
    }

    /// A catalog time such as `2025-10-21T14:11:29.798Z`.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
