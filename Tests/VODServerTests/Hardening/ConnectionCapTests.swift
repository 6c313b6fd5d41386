import Foundation
import Testing
import VODTestSupport

/// Issue 27: what anyone on the network may hold at once. Event streams (SSE and WebSocket together) and
/// uploads in progress are answered 503 with `Retry-After` one past their cap, a multipart form with too many
/// or too long fields 413, each with a JSON error; a place freed is usable again and the server keeps running.
@Suite(.serialized, .tags(.processes), .needsExternalTools, .timeLimit(.minutes(5))) struct ConnectionCapTests {
    @Test func eventStreamsPastTheCapGet503UntilOneCloses() async throws {
        let folders = try ServedFolders()
        let server = try await folders.serve(["--max-event-subscribers", "2"])
        let outcome = try await HeldConnections(port: server.port).run(holding: [.sse, .ws], past: .ws, again: .sse)
        #expect(outcome.held.map(\.status) == [200, 101])
        try expectBusy(outcome.past, "Too many event streams are open; try again in 2 s")
        let pastSSE = try await HeldConnections(port: server.port).run(holding: [.ws, .ws], past: .sse, again: .ws)
        try expectBusy(pastSSE.past, "Too many event streams are open; try again in 2 s")
        #expect(outcome.again.status == 200, "an event stream opens once one has closed: \(outcome.again)")
        #expect(pastSSE.again.status == 101, "a WebSocket opens once one has closed: \(pastSSE.again)")
        // Not at the stream's next keep-alive, 15 s on: the server notices the close while the stream is idle.
        #expect(outcome.freedAfter < 5, "a closed event stream's place is free within seconds: \(outcome.freedAfter) s")
        #expect(pastSSE.freedAfter < 5, "a closed WebSocket's place is free within seconds: \(pastSSE.freedAfter) s")
        #expect(try await server.isHealthy())
        #expect(try await server.stop(SIGTERM) == 0)
    }

    @Test func uploadsPastTheCapGet503UntilOneEnds() async throws {
        let folders = try ServedFolders()
        let server = try await folders.serve(["--max-concurrent-uploads", "1"])
        let outcome = try await HeldConnections(port: server.port).run(holding: [.upload], past: .smallUpload, again: .smallUpload)
        #expect(outcome.held.map(\.status) == [nil], "the held upload is still sending its body")
        try expectBusy(outcome.past, "Too many uploads are in progress; try again in 2 s")
        #expect(outcome.again.status == 422, "an upload is received once the other has ended: \(outcome.again)")
        #expect(outcome.freedAfter < 5, "a broken-off upload's place is free within seconds: \(outcome.freedAfter) s")
        #expect(try await server.isHealthy())
        #expect(try await server.stop(SIGTERM) == 0)
    }

    @Test func formsWithTooManyOrTooLongFieldsGet413() async throws {
        let folders = try ServedFolders()
        let server = try await folders.serve(["--max-form-fields", "3", "--max-form-field-size", "1K"])
        let fields = ["title=a", "description=b", "visibility=public", "extra=d"]
        let tooMany = try await post(fields, to: server)
        #expect(tooMany.status == 413)
        #expect(tooMany.error == "The form has more than 3 fields besides the file")
        let tooLong = try await post(["title=" + String(repeating: "x", count: 1025)], to: server)
        #expect(tooLong.status == 413)
        #expect(tooLong.error == "Form field \"title\" is longer than 1024 bytes")
        let withinLimits = try await post(Array(fields.prefix(3)), to: server)
        #expect(withinLimits.status == 422, "three fields of a few bytes pass, and the file is then probed: \(withinLimits)")
        #expect(folders.entries(of: folders.media).isEmpty, "no refused upload was kept")
        #expect(try await server.isHealthy())
        #expect(try await server.stop(SIGTERM) == 0)
    }

    /// A 503 with `Retry-After` and `{"error": message}`.
    private func expectBusy(_ answer: HeldConnections.Answer, _ message: String) throws {
        #expect(answer.status == 503, "\(answer)")
        #expect(answer.retryAfter == "2")
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: String]
        #expect(json == ["error": message])
    }

    /// Posts a multipart form of `fields` and a small file that is not media.
    private func post(_ fields: [String], to server: ServerProcess) async throws -> UploadAnswer {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("notes.mp4")
        try Data(repeating: 1, count: 64).write(to: file)
        return try await UploadAnswer.send(file.path, to: server.url, fields: fields)
    }
}
