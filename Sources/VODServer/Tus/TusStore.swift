import Foundation
import Synchronization
import VODModel
import VODService

/// The resumable uploads of a media folder, in its hidden `.uploads` folder: for each upload, `<id>.json`
/// (a `TusUpload`, replaced in one rename) and `<id>.bin`, its bytes so far. The data file's size is the
/// offset, so an upload resumes after a restart from the last byte written.
///
/// One request at a time writes an upload (`withLock`); the orphan sweep at start leaves the folder alone, and
/// `TusExpiryService` removes what expires.
final class TusStore: Sendable {
    let folder: String
    /// How long an upload lives after its last chunk.
    let expiry: TimeInterval
    /// Ids a request of this process is writing.
    let busy = Mutex<Set<String>>([])

    init(mediaDirectory: String, expiry: TimeInterval) {
        folder = "\(mediaDirectory)/\(MediaLibrary.resumableUploadsFolder)"
        self.expiry = expiry
    }

    func dataPath(of id: String) -> String { "\(folder)/\(id).bin" }
    func infoPath(of id: String) -> String { "\(folder)/\(id).json" }

    /// Records a new upload, with an empty data file.
    func create(length: Int64, metadata: String?, now: Date = Date()) throws -> TusUpload {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fields = try metadata.map(TusUpload.metadata) ?? [:]
        let upload = TusUpload(
            id: UUID().uuidString.lowercased().filter { $0 != "-" }, length: length, metadata: metadata,
            fileName: fields["filename"], title: fields["title"], description: fields["description"],
            visibility: try MediaVisibility(parameter: fields["visibility"]), expires: now.addingTimeInterval(expiry)
        )
        try save(upload)
        guard FileManager.default.createFile(atPath: dataPath(of: upload.id), contents: nil) else {
            remove(upload.id)
            throw CocoaError(.fileWriteUnknown)
        }
        return upload
    }

    /// The upload named `id`, unless there is none or it has expired by `now`.
    func upload(_ id: String, now: Date = Date()) -> TusUpload? {
        guard Self.isValid(id), let data = FileManager.default.contents(atPath: infoPath(of: id)),
            let upload = try? JSONDecoder().decode(TusUpload.self, from: data), upload.expires > now
        else { return nil }
        return upload
    }

    /// Writes the info file of `upload` in one rename.
    func save(_ upload: TusUpload) throws {
        try JSONEncoder().encode(upload).write(to: URL(fileURLWithPath: infoPath(of: upload.id)), options: .atomic)
    }

    /// How many bytes of `upload` have been received: its data file's size, or all of them once complete.
    func offset(of upload: TusUpload) -> Int64 {
        upload.isComplete ? upload.length : FileStatus(path: dataPath(of: upload.id))?.size ?? 0
    }

    /// Removes both files of upload `id`.
    func remove(_ id: String) {
        try? FileManager.default.removeItem(atPath: dataPath(of: id))
        try? FileManager.default.removeItem(atPath: infoPath(of: id))
    }

    /// Removes the uploads expired by `now` that no request is writing, and data files without an info file
    /// (a crash between the two writes of `create`). Returns the ids removed.
    @discardableResult
    func removeExpired(now: Date = Date()) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let ids = Set(names.compactMap { name -> String? in
            let id = (name as NSString).deletingPathExtension
            return Self.isValid(id) ? id : nil
        })
        return ids.sorted().filter { id in
            guard upload(id, now: now) == nil, !busy.withLock({ $0.contains(id) }) else { return false }
            remove(id)
            return true
        }
    }

    /// Whether `id` has the form of an upload id, so that it names a file in the folder and nothing else.
    static func isValid(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
