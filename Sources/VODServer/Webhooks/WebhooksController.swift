import Foundation
import Hummingbird
import VODCatalog
import VODModel

/// `GET /api/webhooks/deliveries`: the most recent webhook deliveries and how they went, for operators;
/// protected like writes, since it names the receivers.
struct WebhooksController: Sendable {
    let catalog: any WebhookOutbox & SignatureLedger
    let writeProtection: WriteProtection

    /// The most deliveries one request lists.
    static let maximumLimit = 1000

    func addRoutes(to group: RouterGroup<VODRequestContext>) {
        group.add(middleware: WriteProtectionMiddleware(protection: writeProtection, signatures: catalog, body: .collected(limit: MediaController.maximumSignedBodySize)))
            .get("deliveries", use: deliveries)
    }

    /// Newest first: `?limit=` of them (100 by default).
    @Sendable func deliveries(_ request: Request, context: VODRequestContext) async throws -> Response {
        var limit = 100
        if let value = request.uri.queryParameters["limit"] {
            guard let number = Int(value), (1...Self.maximumLimit).contains(number) else {
                throw APIError.badRequest("'limit' must be an integer from 1 to \(Self.maximumLimit)")
            }
            limit = number
        }
        let json = "[" + (try await catalog.webhookDeliveries(limit: limit)).map { delivery in
            var object = OrderedJSONObject()
            object.add("id", delivery.id)
            object.add("url", delivery.url)
            object.add("event_id", delivery.event.id)
            object.add("event_type", delivery.event.type.rawValue)
            object.add("media_id", delivery.event.mediaID)
            object.add("status", delivery.status.rawValue)
            object.add("attempts", delivery.attempts)
            object.add("last_status", delivery.lastStatusCode)
            object.add("last_error", delivery.lastError)
            object.add("next_attempt_at", delivery.status == .pending ? Self.isoTime(delivery.nextAttemptAt) : nil)
            object.add("created_at", delivery.createdAt)
            object.add("updated_at", delivery.updatedAt)
            return object.json
        }.joined(separator: ",") + "]"
        return .operatorJSON(json)
    }

    /// Unix seconds in the form of the catalog's times, such as `2025-10-21T14:11:29.798Z`.
    static func isoTime(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
