import Foundation
import Testing
import VODCatalog
import VODServer
import VODService
import VODTestSupport

/// Webhooks from a real `vod serve` to real receivers on loopback: one that fails twice, one that checks every
/// signature, and one that is down until the server has been restarted. Every event of the title reaches each
/// one exactly once with a 2xx, from the catalog's outbox.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct WebhookDeliveryTests {
    @Test func everyEventReachesEveryReceiverSignedRetriedAndAcrossARestart() async throws {
        let test = try TestLibrary()
        let secret = "whsec-\(UUID().uuidString)"
        let flaky = try WebhookReceiver { $0 <= 2 ? .internalServerError : .ok }
        let checking = try WebhookReceiver()
        let late = try WebhookReceiver()
        try await flaky.start()
        try await checking.start()
        let arguments = [
            "--webhook-url", flaky.url, "--webhook-url", checking.url, "--webhook-url", late.url,
            "--webhook-secret", secret, "--webhook-retry-delay", "0.5",
        ]
        var server = try ServerProcess(library: test, arguments: arguments)
        try await server.waitUntilListening()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: test.directory.url)
        let id = try await test.curlUpload(clip, title: "Hooked", to: server.url)
        // The event is recorded right after the status it reports is committed, so a reader can see `ready` first.
        try await waitUntil("media \(id) is ready and its event logged") {
            try await test.catalog.events(after: 0, mediaID: id, limit: 1000).contains { $0.type == .ready }
        }
        #expect(try await test.status(of: id) == .ready)
        let logged = try await test.catalog.events(after: 0, mediaID: id, limit: 1000)
        #expect(logged.map(\.type).filter { $0 != .progress } == [.created, .processing, .playable, .ready])
        let eventIDs = logged.map(\.id)
        try await waitUntil("the flaky receiver has every event") { Set(flaky.requests.dropFirst(2).map(\.eventID)) == Set(eventIDs) }
        try await waitUntil("the checking receiver has every event") { Set(checking.requests.map(\.eventID)) == Set(eventIDs) }
        #expect(try await server.stop(SIGTERM) == 0)
        #expect(late.requests.isEmpty)

        try await late.start()
        server = try ServerProcess(library: test, arguments: arguments)
        defer { _ = server.process.isRunning ? kill(server.serverPID, SIGKILL) : 0 }
        try await server.waitUntilListening()
        try await waitUntil("the receiver that was down has every event after the restart") {
            Set(late.requests.map(\.eventID)) == Set(eventIDs)
        }

        #expect(flaky.requests.count == eventIDs.count + 2, "two failures, then each event once")
        #expect(flaky.requests.dropFirst(2).map(\.eventID).sorted() == eventIDs)
        #expect(checking.requests.map(\.eventID).sorted() == eventIDs, "each event once")
        #expect(late.requests.map(\.eventID).sorted() == eventIDs, "each event once, none lost in the restart")
        let now = Int64(Date().timeIntervalSince1970)
        for request in checking.requests {
            let signature = try #require(request.signature)
            #expect(WebhookSignature.verify(signature, body: request.body, secret: secret, now: now))
            #expect(!WebhookSignature.verify(signature, body: request.body, secret: secret + "x", now: now))
            #expect(!WebhookSignature.verify(signature, body: request.body + Array(" ".utf8), secret: secret, now: now))
            #expect(!WebhookSignature.verify(signature, body: request.body, secret: secret, now: now + 3600), "too old")
            #expect(request.eventType == request.json["type"] as? String)
            let data = try #require(request.json["data"] as? [String: Any])
            #expect(data["id"] as? Int == Int(id) && data["title"] as? String == "Hooked")
        }
        let ready = try #require(checking.requests.first { $0.eventType == "media.ready" })
        let bodyFile = test.directory.url.appendingPathComponent("ready.json")
        try Data(ready.body).write(to: bodyFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Webhooks/verify.py").path
        let verdicts = try await [secret, secret + "x"].asyncMap { key in
            try await ExternalTool.require("python3", [script, try #require(ready.signature), bodyFile.path, key]).standardOutput
        }
        #expect(verdicts == ["True\n", "False\n"], "the Python receiver of docs/events-and-webhooks.md agrees")
        #expect((ready.json["data"] as? [String: Any])?["ready?"] as? Bool == true)

        let listing = try await ExternalTool.require("curl", ["-sf", "\(server.url)/api/webhooks/deliveries?limit=1000"])
        let deliveries = try #require(try JSONSerialization.jsonObject(with: Data(listing.standardOutput.utf8)) as? [[String: Any]])
        #expect(deliveries.count == 3 * eventIDs.count)
        #expect(deliveries.allSatisfy { $0["status"] as? String == "delivered" })
        let flakyAttempts = deliveries.filter { $0["url"] as? String == flaky.url }.compactMap { $0["attempts"] as? Int }
        #expect(flakyAttempts.reduce(0, +) == eventIDs.count + 2)
        let lateAttempts = deliveries.filter { $0["url"] as? String == late.url }.compactMap { $0["attempts"] as? Int }
        #expect(lateAttempts.count == eventIDs.count && lateAttempts.allSatisfy { $0 >= 2 }, "refused while it was down")
        await flaky.stop()
        await checking.stop()
        await late.stop()
    }

    @Test func deliveriesAreProtectedLikeWrites() async throws {
        let test = try TestLibrary()
        let keyFile = test.directory.url.appendingPathComponent("keys")
        try "operator-key\n".write(to: keyFile, atomically: true, encoding: .utf8)
        let server = try ServerProcess(library: test, arguments: ["--api-key-file", keyFile.path])
        defer { _ = server.process.isRunning ? kill(server.serverPID, SIGKILL) : 0 }
        try await server.waitUntilListening()
        let url = "\(server.url)/api/webhooks/deliveries"
        #expect(try await ExternalTool.require("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url]).standardOutput == "401")
        let listed = try await ExternalTool.require("curl", ["-s", "-H", "X-API-Key: operator-key", "-w", " %{http_code}", url])
        #expect(listed.standardOutput == "[] 200")
        let badLimit = try await ExternalTool.require("curl", ["-s", "-H", "X-API-Key: operator-key", "-w", " %{http_code}", url + "?limit=0"])
        #expect(badLimit.standardOutput.hasSuffix(" 400") && badLimit.standardOutput.contains("\"error\""))
    }
}
