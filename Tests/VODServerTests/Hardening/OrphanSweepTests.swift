import Foundation
import Testing
import VODCatalog
import VODServer
import VODTestSupport

/// What the start-up sweep removes and, as important, what it keeps.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct OrphanSweepTests {
    @Test func removesWhatADeadProcessLeftAndKeepsEverythingElse() async throws {
        let test = try TestLibrary()
        let library = test.library
        let item = try await library.ingest(
            file: try makeFile(in: test.root, "clip.ts", bytes: try clipBytes(in: test)),
            originalName: "clip.ts", title: nil, description: nil, mode: .copy
        )
        let start = Date()
        let old = start.addingTimeInterval(-60)
        let oldUpload = try makeFile(in: test.mediaDirectory, ".upload-1.part", modified: old)
        let freshUpload = try makeFile(in: test.mediaDirectory, ".upload-2.part", modified: start.addingTimeInterval(1))
        let orphan = try makeFile(in: test.mediaDirectory, "\(UUID().uuidString.lowercased()).mp4")
        let userFile = try makeFile(in: test.mediaDirectory, "notes.txt")
        let oldStaging = try makeFolder("\(test.outputDirectory)/.\(item.id).tmp-1a2b3c4d", modified: old)
        let freshStaging = try makeFolder("\(test.outputDirectory)/.\(item.id).tmp-5e6f7a8b", modified: start.addingTimeInterval(1))
        let deleted = try makeFolder("\(test.outputDirectory)/\(item.id + 1)")
        let kept = try makeFolder(library.outputFolder(for: item.id))

        let report = try await library.removeOrphans(changedBefore: start)

        #expect(report.partialUploads == [oldUpload])
        #expect(report.originals == [orphan])
        #expect(report.stagingFolders == [oldStaging])
        #expect(report.renditions == [deleted])
        for path in [freshUpload, userFile, freshStaging, kept, item.sourcePath, test.databasePath] {
            #expect(FileManager.default.fileExists(atPath: path), "\(path) is kept")
        }
        #expect(try await library.removeOrphans(changedBefore: start).isEmpty, "a second sweep finds nothing")
    }

    private func clipBytes(in test: TestLibrary) async throws -> Data {
        let clip = try await SyntheticClip(width: 160, height: 120, duration: 1).with(container: "ts").make(in: test.directory.url)
        return try Data(contentsOf: URL(fileURLWithPath: clip))
    }

    private func makeFile(in folder: String, _ name: String, bytes: Data = Data("x".utf8), modified: Date? = nil) throws -> String {
        let path = "\(folder)/\(name)"
        try bytes.write(to: URL(fileURLWithPath: path))
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
        return path
    }

    private func makeFolder(_ path: String, modified: Date? = nil) throws -> String {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
        return path
    }
}
