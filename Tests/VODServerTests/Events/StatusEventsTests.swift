import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// Status events over Server-Sent Events, read by curl from a real `vod serve`: every change of a title in
/// order, each with its media JSON, resumed with `Last-Event-ID` without loss, per title or for all, through
/// a connection idle longer than the server's idle timeout.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct StatusEventsTests {
    @Test func aTitlesLifeArrivesInOrderAndResumesWithoutLoss() async throws {
        let test = try TestLibrary()
        let server = try ServerProcess(library: test, arguments: ["--idle-timeout", "2"])
        defer { _ = server.process.isRunning ? kill(server.serverPID, SIGKILL) : 0 }
        try await server.waitUntilListening()
        let everything = try EventStreamClient("\(server.url)/api/events", in: test.directory)
        try await Task.sleep(for: .seconds(3))
        #expect(everything.isOpen, "an event stream outlives the idle timeout")

        let clip = try await SyntheticClip(width: 320, height: 240, duration: 4).make(in: test.directory.url)
        let id = try await test.curlUpload(clip, title: "Events", to: server.url)
        try await everything.waitFor("media \(id) is ready") { $0.type == "media.ready" && $0.mediaID == id }

        let all = everything.events
        #expect(all.map(\.id) == all.map(\.id).sorted() && Set(all.map(\.id)).count == all.count, "ids grow")
        let mine = all.filter { $0.mediaID == id }
        let types = mine.map(\.type).filter { $0 != "media.progress" }
        #expect(types == ["media.created", "media.processing", "media.playable", "media.ready"])
        #expect(mine.allSatisfy { ($0.data["id"] as? Int).map(Int64.init) == id && $0.data["title"] as? String == "Events" })
        #expect(mine.allSatisfy { $0.json["id"] as? Int == Int($0.id) && $0.json["type"] as? String == $0.type })
        let statuses = Dictionary(mine.map { ($0.type, $0.data["status"] as? String ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(statuses["media.created"] == "pending" && statuses["media.processing"] == "processing")
        #expect(statuses["media.playable"] == "processing" && statuses["media.ready"] == "ready")
        let ready = try #require(mine.last)
        #expect(ready.data["ready?"] as? Bool == true)
        #expect(ready.data["stream_url"] as? String == "\(server.url)/api/media/\(id)/stream")
        #expect((ready.data["variants"] as? [Any])?.count == 2)
        #expect(mine.first { $0.type == "media.playable" }?.data["playable"] as? Bool == true)
        let progress = mine.filter { $0.type == "media.progress" }
        let times = progress.compactMap { ($0.json["created_at"] as? String).flatMap(Self.date) }
        #expect(times.count == progress.count)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 0.9 }, "at most one progress event a second")

        let created = try #require(mine.first)
        let resumed = try EventStreamClient("\(server.url)/api/events", lastEventID: created.id, in: test.directory)
        let titleOnly = try EventStreamClient("\(server.url)/api/media/\(id)/events?last_event_id=0", in: test.directory)
        try await resumed.waitFor("the resumed stream reaches the ready event") { $0.id == ready.id }
        try await titleOnly.waitFor("the title's stream reaches the ready event") { $0.id == ready.id }
        #expect(resumed.events.map(\.id) == all.filter { $0.id > created.id }.map(\.id), "every event after Last-Event-ID, once")
        #expect(titleOnly.events.map(\.id) == mine.map(\.id))
        #expect(titleOnly.events.map(\.type) == mine.map(\.type))

        _ = try await ExternalTool.require("curl", ["-sf", "-X", "DELETE", "\(server.url)/api/media/\(id)"])
        try await everything.waitFor("the deletion") { $0.type == "media.deleted" && $0.mediaID == id }
        try await titleOnly.waitFor("the deletion on the title's stream") { $0.type == "media.deleted" }
        #expect(everything.events.last?.data["title"] as? String == "Events", "the deleted item as it was")
        #expect(everything.isOpen && resumed.isOpen)
    }

    @Test func badRequestsForEventsGetJSONErrors() async throws {
        let test = try TestLibrary()
        let server = try ServerProcess(library: test)
        defer { _ = server.process.isRunning ? kill(server.serverPID, SIGKILL) : 0 }
        try await server.waitUntilListening()
        for (arguments, status) in [
            (["\(server.url)/api/media/999/events"], "404"),
            (["-H", "Last-Event-ID: soon", "\(server.url)/api/events"], "400"),
            (["\(server.url)/api/events?last_event_id=-3"], "400"),
        ] {
            let output = try await ExternalTool.require("curl", ["-s", "-w", "\n%{http_code}"] + arguments)
            let lines = output.standardOutput.split(separator: "\n")
            #expect(lines.last.map(String.init) == status, "\(arguments)")
            let body = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
            #expect(body?["error"] is String, "\(arguments): \(output.standardOutput)")
        }
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
