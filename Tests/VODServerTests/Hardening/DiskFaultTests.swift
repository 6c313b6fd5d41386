import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// Issue 4, part 3: a full or read-only disk under the renditions or the originals. Jobs fail with a clear
/// reason, uploads get a JSON 507 and leave nothing, the catalog stays sound and the server stays up.
///
/// The file systems are real tmpfs mounts, so these tests need root, as in CI; elsewhere they fail, loudly.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct DiskFaultTests {
    @Test func aFullRenditionDiskFailsTheJobWithAClearReason() async throws {
        try await withMountedFolder(\.output, options: "size=48k") { folders in
            let reason = try await failedReason(in: folders)
            #expect(reason == "Transcoding failed: the renditions could not be written: the disk is full (no space left on device)")
        }
    }

    @Test func aReadOnlyRenditionFolderFailsTheJobWithAClearReason() async throws {
        try await withMountedFolder(\.output, options: "ro,size=1m") { folders in
            let reason = try await failedReason(in: folders)
            #expect(reason == "Transcoding failed: the renditions could not be written: the folder is on a read-only file system")
        }
    }

    @Test func anUploadOntoAFullDiskGets507AndLeavesNothing() async throws {
        try await withMountedFolder(\.media, options: "size=32k") { folders in
            let clip = try await SyntheticClip(width: 320, height: 240, duration: 3).make(in: folders.directory.url)
            let server = try await folders.serve(["--workers", "0"])
            let answer = try await UploadAnswer.send(clip, to: server.url)
            #expect(answer.status == 507)
            #expect(answer.error == "The upload could not be stored: the disk is full (no space left on device)")
            try await waitUntil("the partial upload is removed", timeout: 10) { folders.entries(of: folders.media).isEmpty }
            #expect(try await folders.items().isEmpty)
            #expect(try await server.isHealthy())
            #expect(try folders.catalog.integrityCheck() == ["ok"])
            _ = try await server.stop(SIGTERM)
        }
    }

    /// Uploads a clip to a server on `folders` and returns the reason its job failed, after checking the server
    /// carries on and the catalog is sound.
    private func failedReason(in folders: ServedFolders) async throws -> String {
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 3).make(in: folders.directory.url)
        let server = try await folders.serve()
        let answer = try await UploadAnswer.send(clip, to: server.url)
        let id = try #require(answer.id, "\(answer)")
        try await waitUntil("the job fails", timeout: 60) { try await folders.catalog.media(id: id)?.status == .failed }
        #expect(folders.entries(of: folders.output).isEmpty, "no staging folder is left on the faulty disk")
        #expect(try await server.isHealthy())
        #expect(try folders.catalog.integrityCheck() == ["ok"])
        #expect(try await server.stop(SIGTERM) == 0)
        return try await folders.catalog.media(id: id)?.error ?? ""
    }

    /// Runs `body` with one of the served folders on a fresh tmpfs mounted with `options`, unmounted afterwards.
    private func withMountedFolder(
        _ folder: KeyPath<ServedFolders, String>, options: String, _ body: (ServedFolders) async throws -> Void
    ) async throws {
        try #require(getuid() == 0, "disk fault tests mount tmpfs file systems and must run as root, as CI does")
        let folders = try ServedFolders()
        let path = folders[keyPath: folder]
        try await ExternalTool.require("mount", ["-t", "tmpfs", "-o", options, "tmpfs", path])
        let failure: (any Error)?
        do {
            try await body(folders)
            failure = nil
        } catch {
            failure = error
        }
        _ = try? await ExternalTool.run("umount", ["-l", path])
        if let failure { throw failure }
    }
}
