/// Why `MediaLibrary.ingest` stored nothing: the library's own error, which `vod import` prints and the HTTP
/// API answers as an `APIError` (`APIError(_:)`).
public enum IngestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Probing found the file is not a video or audio the engine can read, for `reason`.
    case notMedia(String)
    /// The file could not be stored in the media folder: the disk is full or read-only, or a folder not writable.
    case notStored(StorageFault)

    public var description: String {
        switch self {
        case .notMedia(let reason): "The uploaded file is not a playable video: \(reason)"
        case .notStored(let fault): "The upload could not be stored: \(fault)"
        }
    }
}
