import Foundation
import Hummingbird
import VODEngine
import _NIOFileSystem

/// A file-system failure a person can act on: a full disk, a read-only one, or a folder the server may not
/// write. Recognised in the errors of FFmpeg, Foundation and NIO, which each wrap `errno` differently.
struct StorageFault: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case full
        case readOnly
        case denied
    }

    let kind: Kind

    /// The fault behind `error`, or nil when `error` is not a storage fault.
    init?(_ error: any Error) {
        guard let kind = Self.kind(of: error, depth: 0) else { return nil }
        self.kind = kind
    }

    var description: String {
        switch kind {
        case .full: "the disk is full (no space left on device)"
        case .readOnly: "the folder is on a read-only file system"
        case .denied: "the server is not allowed to write the folder (permission denied)"
        }
    }

    /// 507, which HTTPTypes does not name.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    /// The response to an upload that could not be stored: 507 when the disk is full, 500 otherwise.
    var uploadError: APIError {
        let status: HTTPResponse.Status = kind == .full ? Self.insufficientStorage : .internalServerError
        return .http(status, message: "The upload could not be stored: \(self)")
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
