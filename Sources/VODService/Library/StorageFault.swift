import Foundation
import VODEngine
import _NIOFileSystem

/// A file-system failure a person can act on: a full disk, a read-only one, or a folder the server may not
/// write. Recognised in the errors of FFmpeg, Foundation and NIO, which each wrap `errno` differently.
public struct StorageFault: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a person would act on it.
    public enum Kind: Sendable, Equatable {
        /// No space left (or a quota or file size limit reached).
        case full
        /// The folder is on a read-only file system.
        case readOnly
        /// The process may not write the folder.
        case denied
    }

    /// What went wrong.
    public let kind: Kind

    /// The fault behind `error`, or nil when `error` is not a storage fault.
    package init?(_ error: any Error) {
        guard let kind = Self.kind(of: error, depth: 0) else { return nil }
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .full: "the disk is full (no space left on device)"
        case .readOnly: "the folder is on a read-only file system"
        case .denied: "the server is not allowed to write the folder (permission denied)"
        }
    }

    private static func kind(of error: any Error, depth: Int) -> Kind? {
        guard depth < 4 else { return nil }
        switch error {
        case let error as FFmpegError:
            return error.averror.flatMap { kind(errno: -$0) }
        case let error as FileSystemError:
            if let call = error.cause as? FileSystemError.SystemCallError { return kind(errno: call.errno.rawValue) }
            return error.cause.flatMap { kind(of: $0, depth: depth + 1) }
        case let error as POSIXError:
            return kind(errno: error.code.rawValue)
        default:
            let error = error as NSError
            if error.domain == NSPOSIXErrorDomain { return kind(errno: Int32(error.code)) }
            if error.domain == NSCocoaErrorDomain, let kind = kind(cocoaCode: error.code) { return kind }
            return (error.userInfo[NSUnderlyingErrorKey] as? any Error).flatMap { kind(of: $0, depth: depth + 1) }
        }
    }

    private static func kind(errno code: Int32) -> Kind? {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: .full
        case EROFS: .readOnly
        case EACCES, EPERM: .denied
        default: nil
        }
    }

    private static func kind(cocoaCode code: Int) -> Kind? {
        switch CocoaError.Code(rawValue: code) {
        case .fileWriteOutOfSpace: .full
        case .fileWriteVolumeReadOnly: .readOnly
        case .fileWriteNoPermission: .denied
        default: nil
        }
    }
}
