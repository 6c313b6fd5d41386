import Foundation
import Testing
import VODCatalog

/// The event log and the webhook outbox, with the same assertions on every backend.
@Suite(.timeLimit(.minutes(2))) struct EventLogTests {
    @Test(arguments: CatalogBackend.tested)
    func eventsKeepTheItemAsItWasAndReadBackInOrder(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        #expect(try await catalog.lastEventID() == 0)
        let first = try await catalog.insert(CatalogStore.newMedia("first"))
        let second = try await catalog.insert(CatalogStore.newMedia("second"))
        let created = try await catalog.appendEvent(.created, item: first)
        _ = try await catalog.appendEvent(.created, item: second)
        let renamed = try #require(try await catalog.update(id: first.id, title: "renamed", description: nil))
        let deleted = try await catalog.appendEvent(.deleted, item: renamed)
        _ = try await catalog.delete(id: first.id)

        let all = try await catalog.events(after: 0, mediaID: nil, limit: 10)
        #expect(all.map(\.type) == [.created, .created, .deleted])
        #expect(all.map(\.mediaID) == [first.id, second.id, first.id])
        #expect(all.map(\.id) == all.map(\.id).sorted() && Set(all.map(\.id)).count == 3)
        #expect(try all[0].item == first, "the snapshot is the item as given")
        #expect(try all[2].item.title == "renamed", "the deleted item is kept after its row is gone")
        #expect(all[0] == created && all[2] == deleted)
        #expect(try await catalog.lastEventID() == deleted.id)
        #expect(try await catalog.events(after: created.id, mediaID: nil, limit: 10).map(\.mediaID) == [second.id, first.id])
        #expect(try await catalog.events(after: 0, mediaID: first.id, limit: 10).map(\.type) == [.created, .deleted])
        #expect(try await catalog.events(after: 0, mediaID: nil, limit: 2).count == 2)
        #expect(try await catalog.events(after: deleted.id, mediaID: nil, limit: 10).isEmpty)
    }

    @Test(arguments: CatalogBackend.tested)
    func webhookDeliveriesAreQueuedOncePerEventAndURL(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("clip"))
        _ = try await catalog.appendEvent(.created, item: item)
        let urls = ["http://a.test/hook", "http://b.test/hook"]
        #expect(try await catalog.scheduleWebhookDeliveries(urls: urls) == 0, "a new URL starts after the newest event")
        let processing = try await catalog.appendEvent(.processing, item: item)
        let ready = try await catalog.appendEvent(.ready, item: item)
        #expect(try await catalog.scheduleWebhookDeliveries(urls: urls) == 4)
        #expect(try await catalog.scheduleWebhookDeliveries(urls: urls) == 0, "each event is queued once per URL")

        let claimed = try await catalog.claimWebhookDeliveries(worker: "w1", lease: .seconds(60), limit: 10)
        #expect(claimed.count == 4)
        #expect(Set(claimed.map { "\($0.url) \($0.event.id)" }) == Set(urls.flatMap { url in [processing, ready].map { "\(url) \($0.id)" } }))
        #expect(claimed.allSatisfy { $0.status == .pending && $0.attempts == 0 && $0.lastStatusCode == nil })
        #expect(claimed.first { $0.event.id == ready.id }?.event == ready)
        #expect(try await catalog.claimWebhookDeliveries(worker: "w2", lease: .seconds(60), limit: 10).isEmpty,
                "leased deliveries are not claimed twice")

        let delivered = try #require(claimed.first)
        let retried = claimed[1]
        let failed = claimed[2]
        try await catalog.recordWebhookAttempt(delivered, WebhookAttempt(outcome: .delivered, statusCode: 204, error: nil))
        try await catalog.recordWebhookAttempt(retried, WebhookAttempt(outcome: .retry(after: 0), statusCode: 500, error: "HTTP 500"))
        try await catalog.recordWebhookAttempt(failed, WebhookAttempt(outcome: .failed, statusCode: nil, error: "refused"))

        let again = try await catalog.claimWebhookDeliveries(worker: "w2", lease: .seconds(60), limit: 10)
        #expect(again.map(\.id) == [retried.id], "a retry due now is claimed again, and nothing else")
        #expect(again.first?.attempts == 1 && again.first?.lastStatusCode == 500 && again.first?.lastError == "HTTP 500")
        try await catalog.recordWebhookAttempt(again[0], WebhookAttempt(outcome: .retry(after: 3600), statusCode: 503, error: "HTTP 503"))
        #expect(try await catalog.claimWebhookDeliveries(worker: "w3", lease: .seconds(60), limit: 10).isEmpty,
                "a retry is not due before its time")

        let recent = try await catalog.webhookDeliveries(limit: 10)
        #expect(recent.count == 4)
        let byID = Dictionary(uniqueKeysWithValues: recent.map { ($0.id, $0) })
        #expect(byID[delivered.id]?.status == .delivered && byID[delivered.id]?.attempts == 1 && byID[delivered.id]?.lastStatusCode == 204)
        #expect(byID[failed.id]?.status == .failed && byID[failed.id]?.lastError == "refused")
        #expect(byID[retried.id]?.status == .pending && byID[retried.id]?.attempts == 2)
        #expect(try await catalog.webhookDeliveries(limit: 2).count == 2)
    }

    @Test(arguments: CatalogBackend.tested)
    func pruningKeepsRecentEventsAndThoseStillToDeliver(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("clip"))
        _ = try await catalog.scheduleWebhookDeliveries(urls: ["http://a.test/hook"])
        let pending = try await catalog.appendEvent(.created, item: item)
        _ = try await catalog.scheduleWebhookDeliveries(urls: ["http://a.test/hook"])
        _ = try await catalog.appendEvent(.processing, item: item)
        #expect(try await catalog.pruneEvents(olderThan: 3600) == 0, "recent events stay")
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await catalog.pruneEvents(olderThan: 0) == 1, "an old event goes unless a delivery still needs it")
        #expect(try await catalog.events(after: 0, mediaID: nil, limit: 10).map(\.id) == [pending.id])
        let delivery = try #require(try await catalog.claimWebhookDeliveries(worker: "w", lease: .seconds(60), limit: 1).first)
        try await catalog.recordWebhookAttempt(delivery, WebhookAttempt(outcome: .delivered, statusCode: 200, error: nil))
        #expect(try await catalog.pruneEvents(olderThan: 0) == 1)
        #expect(try await catalog.webhookDeliveries(limit: 10).isEmpty, "a delivery goes with its event")
    }
}
