import Foundation
import Testing
import VODClient
import VODModel
import VODTestSupport

/// `update`, captions, `retry` and `delete` on a ready title of a real `vod serve`.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct CatalogTests {
    @Test func readyTitleIsUpdatedCaptionedAndDeleted() async throws {
        let server = try ServeProcess()
        let clip = try await tinyClip(in: server.directory)
        let captionFile = server.directory.url.appendingPathComponent("clip.fr.vtt")
        try Data("WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nBonjour\n".utf8).write(to: captionFile)
        try await server.waitUntilListening()
        let client = server.client()
        let uploaded = try await client.upload(file: clip.url, title: "Before")
        let ready = try await client.waitUntilReady(id: uploaded.id, timeout: .seconds(60))

        let updated = try await client.update(id: ready.id, title: "After", description: "Changed")
        #expect(updated.title == "After" && updated.description == "Changed")
        #expect(try await client.update(id: ready.id, description: "Only this").title == "After", "nil leaves the title")
        #expect(try await client.list(status: .ready).map(\.description) == ["Only this"])
        #expect(try await client.list(status: .failed).isEmpty)
        #expect(updated.visibility == .public)
        #expect(try await client.update(id: ready.id, visibility: .private).visibility == .private)
        #expect(try await client.list().isEmpty, "a private title is not listed without an API key")
        #expect(try await client.update(id: ready.id, visibility: .public).visibility == .public)
        #expect(try await client.list().map(\.id) == [ready.id])

        let caption = try await client.addCaption(to: ready.id, file: captionFile, language: "fr", isDefault: true)
        #expect(caption.language == "fr" && caption.name == "Français" && caption.isDefault && caption.mediaID == ready.id)
        #expect(try await client.captions(of: ready.id) == [caption])
        #expect(try await client.get(id: ready.id).captions == [caption])
        let vtt = try await ExternalTool.require("curl", ["-sf", caption.url.absoluteString]).standardOutput
        #expect(vtt.contains("Bonjour"), "\(vtt)")
        try await client.deleteCaption(id: caption.id, of: ready.id)
        #expect(try await client.captions(of: ready.id).isEmpty)

        let refusal = await #expect(throws: VODClientError.self) { try await client.retry(id: ready.id) }
        #expect(refusal?.status == 409, "\(String(describing: refusal))")
        try await client.delete(id: ready.id)
        await #expect(throws: VODClientError.refused(status: 404, message: "Media not found")) { try await client.get(id: ready.id) }
        #expect(try await client.list().isEmpty)
    }
}
