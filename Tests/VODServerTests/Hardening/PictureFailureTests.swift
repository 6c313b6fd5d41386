import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// A job whose video never decodes fails at once with the decoder's complaint in words, through the real
/// server: not requeued as if it had been cancelled, and the server carries on.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct PictureFailureTests {
    @Test func undecodableVideoFailsOnceWithTheDecodersReason() async throws {
        let folders = try ServedFolders()
        let clip = try await SyntheticClip.undecodable(in: folders.directory.url)
        let server = try await folders.serve()
        let answer = try await UploadAnswer.send(clip, to: server.url)
        let id = try #require(answer.id, "\(answer)")
        try await waitUntil("the job fails", timeout: 60) { try await folders.catalog.media(id: id)?.status == .failed }
        let item = try #require(try await folders.catalog.media(id: id))
        #expect(item.error == "Transcoding failed: the video stream could not be decoded (vp9: Invalid frame marker)")
        #expect(item.attempts <= 1, "failed, not requeued as an interruption")
        #expect(try await server.isHealthy())
        #expect(try await server.stop(SIGTERM) == 0)
    }
}
