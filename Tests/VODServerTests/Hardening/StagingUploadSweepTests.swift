import Foundation
import Testing
import VODServer

/// The start-up sweep runs while the server already takes uploads, so it must tell this process's uploads in
/// progress from those a dead process left without relying on file times.
@Suite(.timeLimit(.minutes(2))) struct StagingUploadSweepTests {
    /// File times come from the kernel's coarse clock and read a few milliseconds before a `Date()` taken just
    /// earlier. A multipart `POST /api/media` made as its server started (`TusCompletionTests`, once in a full run)
    /// had its staging file dated before the start, so the sweep removed it under the request, whose probe then
    /// answered 422. Here the staging file is dated 5 ms before the start, as that one was.
    @Test func anUploadThisProcessIsStagingIsKeptWhateverItsFileTime() async throws {
        let test = try TestLibrary()
        let start = Date()
        let justBefore = start.addingTimeInterval(-0.005)
        let staging = try makeFile(test.library.uploadStagingPath(), modified: justBefore)
        let uuid = UUID().uuidString.lowercased()
        let deadProcessUploads = try [".upload-\(uuid).part", ".upload-0badf00d-\(uuid).part"].map { name in
            try makeFile("\(test.mediaDirectory)/\(name)", modified: justBefore)
        }

        let report = try await test.library.removeOrphans(changedBefore: start)

        #expect(report.partialUploads == deadProcessUploads.sorted())
        #expect(FileManager.default.fileExists(atPath: staging), "the upload this process is staging is kept")
    }

    private func makeFile(_ path: String, modified: Date) throws -> String {
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        return path
    }
}
