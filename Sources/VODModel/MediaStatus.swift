/// Where a media item is in its life: uploaded, being transcoded, playable, or given up on.
///
/// The raw values are the status strings of the client contract.
public enum MediaStatus: String, Sendable, Codable, CaseIterable {
    /// Uploaded and waiting for a worker.
    case pending
    /// A worker is transcoding it.
    case processing
    /// Its HLS renditions are complete and it can be streamed.
    case ready
    /// Transcoding failed; `Media.error` says why.
    case failed
}
