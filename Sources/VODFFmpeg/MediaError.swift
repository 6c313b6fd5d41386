/// An error about the media itself rather than an FFmpeg call: what the file is, or what it lacks.
public struct MediaError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Equatable, Sendable {
        case refused
        case unsupported
        case invalid
    }

    private let code: Code
    /// A human-readable reason, suitable for an API error body.
    public let reason: String

    /// The input is of a kind the project refuses to read, such as a playlist that points elsewhere.
    public static func refused(_ reason: String) -> MediaError { MediaError(code: .refused, reason: reason) }

    /// The input is media, but of a kind the project cannot transcode.
    public static func unsupported(_ reason: String) -> MediaError { MediaError(code: .unsupported, reason: reason) }

    /// The input claims to be media but its contents are broken or absurd.
    public static func invalid(_ reason: String) -> MediaError { MediaError(code: .invalid, reason: reason) }

    /// Whether the input was refused before anything was decoded.
    public var isRefusal: Bool { code == .refused }

    public var description: String { reason }
}
