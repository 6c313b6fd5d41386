import Foundation

/// A rendition folder written atomically: work happens in a hidden staging folder beside the destination,
/// which replaces the destination in one rename when complete.
public struct OutputFolder: Sendable {
    /// Staging folders are named `.<destination>.tmp-<random>`; anything so named is an orphan once no job runs.
    public static let stagingMarker = ".tmp-"

    /// Whether `name` is a staging folder's name: an orphan when no transcode is running.
    public static func isStaging(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(stagingMarker)
    }

    let destination: URL

    /// Creates a fresh staging folder beside the destination.
    func makeStaging() throws -> URL {
        let parent = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(
            ".\(destination.lastPathComponent)\(Self.stagingMarker)\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        return staging
    }

    /// Creates the destination itself, empty, for a title published as it grows; a folder left there by an
    /// earlier run is removed first.
    func makeInPlace() throws -> URL {
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        return destination
    }

    /// Moves a complete staging folder into place, replacing any previous rendition.
    func commit(_ staging: URL) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: destination.path) {
            let old = destination.deletingLastPathComponent().appendingPathComponent(
                ".\(destination.lastPathComponent)\(Self.stagingMarker)old-\(UUID().uuidString.prefix(8))")
            try manager.moveItem(at: destination, to: old)
            try manager.moveItem(at: staging, to: destination)
            try? manager.removeItem(at: old)
        } else {
            try manager.moveItem(at: staging, to: destination)
        }
    }

    /// The total size of the regular files under `url`, in bytes.
    static func size(of url: URL) -> Int64 {
        let files = FileManager.default.enumerator(atPath: url.path)
        var total: Int64 = 0
        while let file = files?.nextObject() as? String {
            total += fileSize(atPath: url.appendingPathComponent(file).path) ?? 0
        }
        return total
    }

    /// The size of the regular file at `path`, from `lstat`: Foundation's attributes and resource values also
    /// read /etc/passwd and /etc/group for the owner's name, and a transcode reads no file but its input.
    static func fileSize(atPath path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(status.st_size)
    }
}
