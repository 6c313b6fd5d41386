import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import Testing
import VODCatalog
import VODTestSupport

/// `GET /api/ws`: the status events over a WebSocket, from a real `vod serve`.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct EventsWebSocketTests {
    @Test func theSocketReplaysFromAnEventThenCarriesNewOnes() async throws {
        let test = try TestLibrary()
        let server = try ServerProcess(library: test)
        defer { _ = server.process.isRunning ? kill(server.serverPID, SIGKILL) : 0 }
        try await server.waitUntilListening()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: test.directory.url)
        let id = try await test.curlUpload(clip, title: "Socket", to: server.url)
        try await waitUntil("media \(id) is ready") { try await test.status(of: id) == .ready }
        let logged = try await test.catalog.events(after: 0, mediaID: nil, limit: 1000)

        let received = Mutex<[String]>([])
        let url = "ws://127.0.0.1:\(server.port)/api/ws?last_event_id=0&media_id=\(id)"
        let client = Task {
            try await WebSocketClient.connect(url: url, logger: Logger(label: "ws-test")) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message else { continue }
                    received.withLock { $0.append(text) }
                    if text.contains(#""type":"media.deleted""#) { return }
                }
            }
        }
        // At least those: the log may gain an event between the status the test read and its snapshot (CI 25),
        // which the socket then replays too, so the count can pass the snapshot's.
        try await waitUntil("the socket has replayed the title's events", timeout: 30) { received.withLock { $0.count } >= logged.count }
        _ = try await ExternalTool.require("curl", ["-sf", "-X", "DELETE", "\(server.url)/api/media/\(id)"])
        _ = try await client.value
        let messages = try received.withLock { $0 }.map { text in
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        // The whole log, once the deletion is in it: the socket carried every event of it, in order, once.
        let all = try await test.catalog.events(after: 0, mediaID: nil, limit: 1000)
        #expect(all.starts(with: logged) && all.last?.type == .deleted)
        #expect(messages.compactMap { ($0["id"] as? Int).map(Int64.init) } == all.map(\.id))
        #expect(messages.compactMap { $0["type"] as? String } == all.map(\.type.rawValue))
        #expect(messages.allSatisfy { ($0["data"] as? [String: Any])?["id"] as? Int == Int(id) })
        #expect((messages.last?["data"] as? [String: Any])?["title"] as? String == "Socket")
    }
}
