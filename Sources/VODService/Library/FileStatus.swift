import Foundation

/// What `lstat(2)` says about a path, or `fstat(2)` about an open file. Used instead of `FileManager.attributesOfItem`, which also looks the
/// owner up in /etc/passwd and /etc/group: handling an upload must read no file but the upload.
///
/// Two statuses of one path are equal only when it is still the same file, unchanged: a file replaced by a
/// rename has another inode, and one written in place another size or modification time.
package struct FileStatus: Equatable, Sendable {
    /// The size in bytes.
    package let size: Int64
    /// When the contents last changed.
    package let modified: Date
    /// Whether the path is a regular file (not a folder, link, device or socket).
    package let isRegularFile: Bool
    private let device: UInt64
    private let inode: UInt64

    /// The status of `path` itself (a symbolic link is not followed), or nil when it cannot be read.
    package init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The status of the open file `descriptor`, or nil when it cannot be read.
    package init?(descriptor: CInt) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        size = Int64(info.st_size)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
