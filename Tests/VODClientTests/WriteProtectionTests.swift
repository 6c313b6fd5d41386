import Foundation
import Testing
import VODClient
import VODModel
import VODTestSupport

/// A server with an API key and a signing secret: the client's writes carry both, tus chunks signed one by one,
/// and a wrong key or secret gets the server's refusal as a typed error.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct WriteProtectionTests {
    @Test func writesCarryTheKeyAndTheSignature() async throws {
        let server = try ServeProcess(workers: 0, apiKey: "the-key", secret: "the-secret")
        let clip = try await tinyClip(in: server.directory)
        try await server.waitUntilListening()
        var options = VODClient.Options()
        options.chunkSize = 32 << 10
        let client = server.client(apiKey: "the-key", secret: "the-secret", options: options)
        let progress = ProgressLog()

        let media = try await client.upload(file: clip.url, title: "Signed", progress: progress.record)
        #expect(progress.reports.count == (clip.size + options.chunkSize - 1) / options.chunkSize, "one signed PATCH a chunk")
        progress.expectComplete(size: clip.size)
        #expect(try await client.update(id: media.id, title: "Signed again").title == "Signed again")
        try await client.delete(id: media.id)
        await #expect(throws: VODClientError.refused(status: 404, message: "Media not found")) { try await client.get(id: media.id) }
    }

    @Test func wrongKeyOrSecretIsRefusedWithTheServersMessage() async throws {
        let server = try ServeProcess(workers: 0, apiKey: "the-key", secret: "the-secret")
        let clip = try await tinyClip(in: server.directory)
        try await server.waitUntilListening()
        let media = try await server.client(apiKey: "the-key", secret: "the-secret").upload(file: clip.url, title: "Kept")

        await #expect(throws: VODClientError.refused(status: 401, message: "Missing or invalid X-API-Key")) {
            try await server.client(apiKey: "wrong", secret: "the-secret").upload(file: clip.url)
        }
        await #expect(throws: VODClientError.refused(status: 401, message: "Missing or invalid X-API-Key")) {
            try await server.client().delete(id: media.id)
        }
        await #expect(throws: VODClientError.refused(status: 401, message: "Signed writes need the X-Timestamp and X-Signature headers")) {
            try await server.client(apiKey: "the-key").update(id: media.id, title: "Changed")
        }
        await #expect(throws: VODClientError.refused(status: 401, message: "Invalid X-Signature")) {
            try await server.client(apiKey: "the-key", secret: "wrong").update(id: media.id, title: "Changed")
        }
        #expect(try await server.client().list().map(\.title) == ["Kept"], "reads need nothing; nothing changed")
    }
}
