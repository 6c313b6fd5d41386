import Foundation
import VODEngine

/// What the orphan sweep removed, by kind; each entry is a path.
public struct OrphanReport: Sendable, Equatable {
    /// Rendition staging folders (`.<id>.tmp-…`) of transcodes that never finished.
    public var stagingFolders: [String] = []
    /// Upload staging files (`.upload-….part`) of uploads that never finished.
    public var partialUploads: [String] = []
    /// Stored originals that no catalog row names.
    public var originals: [String] = []
    /// Rendition folders of items that are no longer in the catalog.
    public var renditions: [String] = []

    public var isEmpty: Bool { (stagingFolders + partialUploads + originals + renditions).isEmpty }
}

extension MediaLibrary {
    /// On shared storage, a partial upload untouched this long (a day, in seconds) is abandoned.
    static let abandonedUploadAge: TimeInterval = 24 * 3600

    /// Upload staging files are named `.upload-<owner>-<uuid>.part` in the media folder (`.upload-<uuid>.part`
    /// before owners were named).
    static let uploadStagingPrefix = ".upload-"

    /// The folder of resumable uploads (`/api/uploads`) in the media folder, which the sweep leaves alone.
    package static let resumableUploadsFolder = ".uploads"

    /// The owner part of this process's staging names. The sweep runs while the server already takes uploads, and
    /// cannot tell this process's uploads from a dead one's by their time: file times come from the kernel's coarse
    /// clock, a few milliseconds behind `Date()` (files written just after a clock reading were dated up to 8 ms
    /// before it), so an upload begun as the server started looked older than the start, was removed under its
    /// request, and the request answered 422.
    static let stagingOwner = UUID().uuidString.prefix(8).lowercased()

    /// A fresh path for an upload's staging file, which the orphan sweep recognises as this process's.
    public func uploadStagingPath() -> String {
        "\(mediaDirectory)/\(Self.uploadStagingPrefix)\(Self.stagingOwner)-\(UUID().uuidString.lowercased()).part"
    }

    /// Whether `name` is an upload staging file that another process, alive or dead, left in the media folder.
    static func isOthersPartialUpload(_ name: String) -> Bool {
        name.hasPrefix(uploadStagingPrefix) && name.hasSuffix(".part")
            && !name.hasPrefix("\(uploadStagingPrefix)\(stagingOwner)-")
    }

    /// Removes what a dead process left behind: staging folders and other processes' partial uploads last changed
    /// before `start` (so work this process has begun is kept), originals with no catalog row and rendition folders
    /// of deleted items. Run it before the transcode workers start. Resumable uploads (`.uploads`) are kept.
    ///
    /// On shared storage, other processes' staging folders are theirs until their lease runs out (see
    /// `removeOutput(of:)`), and only partial uploads untouched for a day are abandoned.
    public func removeOrphans(changedBefore start: Date) async throws -> OrphanReport {
        var report = OrphanReport()
        if !isShared {
            report.stagingFolders = try remove(in: outputDirectory) { name, modified in
                OutputFolder.isStaging(name) && modified < start
            }
        }
        let uploadsBefore = isShared ? min(start, Date(timeIntervalSinceNow: -Self.abandonedUploadAge)) : start
        report.partialUploads = try remove(in: mediaDirectory) { name, modified in
            Self.isOthersPartialUpload(name) && modified < uploadsBefore
        }
        try await IngestLock(mediaDirectory: mediaDirectory).withLock(exclusive: true) {
            let items = try await catalog.sourcePaths()
            let known = Set(items.values.map { ($0 as NSString).lastPathComponent })
            report.originals = try remove(in: mediaDirectory) { name, _ in
                Self.isStoredOriginal(name) && !known.contains(name)
            }
            report.renditions = try remove(in: outputDirectory) { name, _ in
                !name.hasPrefix(".") && Self.itemID(ofOutputFolder: name).map { items[$0] == nil } ?? false
            }
        }
        return report
    }

    /// Whether `name` has the form ingest gives stored originals: a UUID, then an optional extension.
    static func isStoredOriginal(_ name: String) -> Bool {
        let stem = name.prefix { $0 != "." }
        return stem.count == 36 && UUID(uuidString: String(stem)) != nil
    }

    /// Removes the entries of `folder` that `condition` selects, given their name and modification date.
    /// The folder of resumable uploads is never one of them: they live on across restarts until they expire
    /// (`TusExpiryService` of the HTTP server).
    private func remove(in folder: String, where condition: (String, Date) -> Bool) throws -> [String] {
        let manager = FileManager.default
        return try manager.contentsOfDirectory(atPath: folder).sorted().compactMap { name in
            guard name != Self.resumableUploadsFolder else { return nil }
            let path = "\(folder)/\(name)"
            let modified = FileStatus(path: path)?.modified ?? .distantFuture
            guard condition(name, modified) else { return nil }
            try manager.removeItem(atPath: path)
            return path
        }
    }
}
