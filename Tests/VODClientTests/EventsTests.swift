import Foundation
import Testing
import VODClient
import VODModel
import VODTestSupport

/// `VODClient.events` against a real `vod serve`: the status events of an upload, through a stream that drops.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct EventsTests {
    @Test func eventsFollowAnUploadToReadyAndResumeAfterTheStreamDrops() async throws {
        let server = try ServeProcess()
        let clip = try await tinyClip(in: server.directory)
        try await server.waitUntilListening()
        let proxy = try await LoopbackProxy(upstreamPort: server.port, faults: [("GET /api/events", .cutResponse(afterBytes: 3000))])
        let client = server.client(port: proxy.port)
        let listening = Task { try await collect(client.events(after: 0), until: .ready) }

        let media = try await server.client().upload(file: clip.url, title: "Followed")
        let seen = try await listening.value
        #expect(proxy.cuts == 1, "the stream was cut once")
        #expect(seen.allSatisfy { $0.mediaID == media.id && $0.media.id == media.id })
        let types = seen.map(\.type)
        #expect(types.first == .created && types.last == .ready, "\(types)")
        #expect(types.filter { $0 != .progress && $0 != .playable } == [.created, .processing, .ready], "\(types)")
        #expect(seen.first?.media.title == "Followed" && seen.first?.media.status == .pending)
        #expect(seen.last?.media.status == .ready && seen.last?.media.variants?.count == 1)

        let uncut = try await collect(client.events(after: 0), until: .ready)
        #expect(seen.map(\.id) == uncut.map(\.id), "resumed with Last-Event-ID: none missed, none twice")
        #expect(seen == uncut, "the same events, read again in one piece")
    }
}
