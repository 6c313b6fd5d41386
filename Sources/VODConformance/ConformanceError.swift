/// An error while reading HLS input: a playlist or bitstream too broken to analyse, or a file that cannot be read.
public struct ConformanceError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Equatable, Sendable {
        case malformedPlaylist
        case malformedBitstream
        case unreadable
    }

    private let code: Code
    /// A human-readable reason.
    public let reason: String

    /// The playlist cannot be read as an HLS playlist at all.
    public static func malformedPlaylist(_ reason: String) -> ConformanceError {
        ConformanceError(code: .malformedPlaylist, reason: reason)
    }

    /// A bitstream structure (TS packet, PES header, SPS, ADTS header) is truncated or invalid.
    public static func malformedBitstream(_ reason: String) -> ConformanceError {
        ConformanceError(code: .malformedBitstream, reason: reason)
    }

    /// A file cannot be read or lies outside the title's folder.
    public static func unreadable(_ reason: String) -> ConformanceError {
        ConformanceError(code: .unreadable, reason: reason)
    }

    /// Whether the error is about a bitstream rather than a playlist or a file.
    public var isBitstreamError: Bool { code == .malformedBitstream }

    public var description: String { reason }
}
