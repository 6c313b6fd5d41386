import Foundation
import Testing
import VODClient
import VODModel
import VODTestSupport

/// Uploads through `VODClient` to a real `vod serve`: resumable through tus, or a form when the server offers no
/// tus, and what a title that cannot be used gives.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct UploadTests {
    @Test func uploadedClipBecomesReadyAndPlays() async throws {
        let server = try ServeProcess()
        let clip = try await tinyClip(in: server.directory)
        try await server.waitUntilListening()
        let client = server.client()
        let progress = ProgressLog()

        let uploaded = try await client.upload(file: clip.url, title: "Tiny", description: "2 s", progress: progress.record)
        #expect(uploaded.title == "Tiny" && uploaded.description == "2 s")
        #expect([.pending, .processing].contains(uploaded.status))
        #expect(!tusUploads(of: server).isEmpty, "sent through the tus endpoint")
        progress.expectComplete(size: clip.size)

        let ready = try await client.waitUntilReady(id: uploaded.id, timeout: .seconds(60))
        #expect(ready.status == .ready && ready.isReady && ready.isPlayable)
        #expect(ready.variants?.map { [$0.width, $0.height] } == [[320, 180]])
        #expect(ready.source?.width == 320 && ready.source?.displayAspectRatio == "16:9")
        #expect(ready.tracks?.map(\.type) == ["video", "audio"])
        #expect(ready.posterURL != nil && ready.thumbnails?.posters.isEmpty == false)
        #expect(try await client.get(id: uploaded.id) == ready)
        #expect(try await client.list().map(\.id) == [uploaded.id])

        let stream = ready.streamURL.absoluteString
        #expect(try await IndependentPlayers.decodeErrors(master: stream, program: 0) == "", "ffmpeg decodes \(stream)")
        #expect(try await IndependentPlayers.streams(at: stream).map(\.codec_type).sorted() == ["audio", "video"])
    }

    @Test func tusUploadResumesAfterAnInterruptedPatch() async throws {
        let server = try ServeProcess(workers: 0)
        let clip = try await tinyClip(in: server.directory)
        try await server.waitUntilListening()
        let proxy = try await LoopbackProxy(upstreamPort: server.port, faults: [("PATCH /api/uploads/", .cutRequest(afterBytes: 40_000))])
        var options = VODClient.Options()
        options.chunkSize = 64 << 10
        options.retryDelay = .milliseconds(250)
        let progress = ProgressLog()

        let media = try await server.client(port: proxy.port, options: options).upload(file: clip.url, progress: progress.record)
        #expect(proxy.cuts == 1, "the first chunk was cut off")
        #expect(media.title == "clip" && media.status == .pending)
        progress.expectComplete(size: clip.size)
        let sent = progress.reports.map(\.bytesSent)
        #expect(sent.contains { $0 > 0 && $0 < 40_000 }, "resumed from the bytes the server kept of the cut chunk: \(sent)")
        let stored = try #require(try server.storedOriginal(ofSize: clip.size))
        #expect(try Data(contentsOf: URL(fileURLWithPath: stored)) == Data(contentsOf: clip.url), "the original, byte for byte")
    }

    @Test func serverWithoutTusGetsAForm() async throws {
        let server = try ServeProcess(workers: 0, apiKey: "key", secret: "secret")
        let clip = try await tinyClip(in: server.directory)
        try await server.waitUntilListening()
        let proxy = try await LoopbackProxy(upstreamPort: server.port, faults: [("OPTIONS /api/uploads", .notFound)])
        let progress = ProgressLog()

        let client = server.client(port: proxy.port, apiKey: "key", secret: "secret")
        let media = try await client.upload(file: clip.url, title: "Form", progress: progress.record)
        #expect(media.title == "Form" && media.status == .pending)
        #expect(tusUploads(of: server).isEmpty, "no tus upload was made")
        progress.expectComplete(size: clip.size)
        let stored = try #require(try server.storedOriginal(ofSize: clip.size))
        #expect(try Data(contentsOf: URL(fileURLWithPath: stored)) == Data(contentsOf: clip.url))
    }

    @Test func fileThatIsNotMediaIsRefusedWithTheServersReason() async throws {
        let server = try ServeProcess(workers: 0)
        let text = server.directory.url.appendingPathComponent("notes.mp4")
        try Data(String(repeating: "not a video\n", count: 1000).utf8).write(to: text)
        try await server.waitUntilListening()

        let error = await #expect(throws: VODClientError.self) { try await server.client().upload(file: text) }
        #expect(error?.kind == .refused && error?.status == 422)
        #expect(error?.message.hasPrefix("The uploaded file is not a playable video: ") == true, "\(error?.message ?? "")")
        #expect(try await server.client().list().isEmpty)
    }

    @Test func titleThatFailsGivesTheServersReasonFromEventsAndFromPolling() async throws {
        let server = try ServeProcess()
        let clip = URL(fileURLWithPath: try await SyntheticClip.undecodable(in: server.directory.url))
        try await server.waitUntilListening()
        let client = server.client()
        let media = try await client.upload(file: clip)
        let failed = VODClientError.mediaFailed(
            id: media.id, reason: "Transcoding failed: the video stream could not be decoded (vp9: Invalid frame marker)"
        )
        await #expect(throws: failed) { try await client.waitUntilReady(id: media.id, timeout: .seconds(60)) }

        let withoutEvents = try await LoopbackProxy(upstreamPort: server.port, faults: [("GET /api/media/\(media.id)/events", .notFound)])
        var options = VODClient.Options()
        options.pollInterval = .milliseconds(200)
        let polling = server.client(port: withoutEvents.port, options: options)
        let retried = try await polling.retry(id: media.id)
        #expect(retried.status == .pending && retried.error == nil)
        await #expect(throws: failed) { try await polling.waitUntilReady(id: media.id, timeout: .seconds(60)) }
    }

    @Test(.tags(.timeouts)) func waitingGivesUpAfterItsTimeout() async throws {
        let server = try ServeProcess(workers: 0)
        let clip = try await tinyClip(in: server.directory)
        try await server.waitUntilListening()
        let media = try await server.client().upload(file: clip.url)

        let started = ContinuousClock.now
        await #expect(throws: VODClientError.timedOut(id: media.id, after: .milliseconds(500))) {
            try await server.client().waitUntilReady(id: media.id, timeout: .milliseconds(500))
        }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
