import CFFmpeg

/// An error from an FFmpeg call, carrying the FFmpeg code and the operation that failed.
public struct FFmpegError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Equatable, Sendable {
        case library(Int32)
        case outOfMemory
        case cancelled
    }

    private let code: Code
    /// What the project was doing when FFmpeg failed, such as "open input".
    public let operation: String

    /// The raw FFmpeg error code, when FFmpeg returned one.
    public var averror: Int32? {
        if case .library(let value) = code { return value }
        return nil
    }

    /// An FFmpeg call returned `code`.
    public static func library(_ code: Int32, _ operation: String) -> FFmpegError {
        FFmpegError(code: code == vod_averror_exit() ? .cancelled : .library(code), operation: operation)
    }

    /// An FFmpeg allocation returned NULL.
    public static func outOfMemory(_ operation: String) -> FFmpegError {
        FFmpegError(code: .outOfMemory, operation: operation)
    }

    /// The work was cancelled through the interrupt callback.
    public static func cancelled(_ operation: String) -> FFmpegError {
        FFmpegError(code: .cancelled, operation: operation)
    }

    /// Whether the error means the work was cancelled.
    public var isCancellation: Bool { code == .cancelled }

    /// Whether FFmpeg reported the end of the stream.
    public var isEndOfFile: Bool { code == .library(vod_averror_eof()) }

    /// Whether FFmpeg asked for more input before it can give output.
    public var isTryAgain: Bool { code == .library(vod_averror_eagain()) }

    public var description: String {
        switch code {
        case .library(let value): "\(operation): \(FFmpegError.message(for: value))"
        case .outOfMemory: "\(operation): out of memory"
        case .cancelled: "\(operation): cancelled"
        }
    }

    /// FFmpeg's text for an error code.
    public static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        vod_error_string(code, &buffer, buffer.count)
        return String(cBuffer: buffer)
    }
}

/// Throws an `FFmpegError` when an FFmpeg return code is negative, and returns it otherwise.
@discardableResult
@inline(__always)
public func check(_ result: Int32, _ operation: @autoclosure () -> String) throws -> Int32 {
    if result < 0 { throw FFmpegError.library(result, operation()) }
    return result
}
