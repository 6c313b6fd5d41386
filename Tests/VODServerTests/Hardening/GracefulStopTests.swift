import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// Issue 4, part 2: SIGTERM stops new work at once, gives an upload in flight until `--shutdown-timeout`, then
/// cuts it and puts the running job back in the queue; the next start finishes the job.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct GracefulStopTests {
    @Test func sigtermRequeuesTheJobAndCutsASlowUploadWithinTheLimit() async throws {
        let folders = try ServedFolders()
        let long = try await SyntheticClip(width: 320, height: 240, duration: 40).make(in: folders.directory.url, name: "long")
        // veryslow keeps the transcode running until SIGTERM however fast the machine is; superfast (the
        // folders' default) finished this clip before the signal on a quiet machine.
        let server = try await folders.serve(["--shutdown-timeout", "2", "--preset", "veryslow"])
        let id = try #require(try await UploadAnswer.send(long, to: server.url).id)
        try await waitUntil("the job is processing", timeout: 30) { try await folders.catalog.media(id: id)?.status == .processing }
        let original = try #require(try await folders.catalog.media(id: id)?.sourcePath)
        let slow = Task { try await UploadAnswer.send(long, to: server.url, rate: "50k") }
        try await waitUntil("the slow upload is being received", timeout: 10) {
            openFiles(in: folders.media, of: "\(server.serverPID)").contains { $0 != original }
        }

        let signalled = ContinuousClock.now
        kill(server.serverPID, SIGTERM)
        try await waitUntil("new connections are refused", timeout: 2) { !(try await server.isHealthy()) }
        let status = try await server.exitStatus()
        let stopped = ContinuousClock.now - signalled
        #expect(status == 0)
        #expect(stopped > .seconds(2), "the upload in flight had until the shutdown timeout")
        #expect(stopped < .seconds(5), "stopped \(stopped) after SIGTERM with --shutdown-timeout 2")
        #expect(try await slow.value.status != 201, "the slow upload was cut")
        let item = try #require(try await folders.catalog.media(id: id))
        #expect(item.status == .pending && item.attempts == 0, "the running job went back to the queue uncounted")
        #expect(try await folders.items().count == 1, "the cut upload added no item")

        let next = try await folders.serve()
        try await waitUntil("the requeued job is ready", timeout: 120) { try await folders.catalog.media(id: id)?.status == .ready }
        #expect(!folders.entries(of: folders.media).contains { $0.hasPrefix(".upload-") }, "no partial upload is left")
        #expect(try await next.stop(SIGTERM) == 0)
        print("graceful stop: exited \(stopped) after SIGTERM (limit 2 s + cancellation)")
    }
}
