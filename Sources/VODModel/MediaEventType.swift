/// What happened to a media item, as status events, SSE streams and webhooks name it.
public enum MediaEventType: String, Sendable, Codable, CaseIterable {
    /// Uploaded or imported, and queued.
    case created = "media.created"
    /// A worker claimed it and is transcoding it.
    case processing = "media.processing"
    /// Its transcode advanced; at most one a second per title.
    case progress = "media.progress"
    /// Its first segments are out: it plays while it is still processing.
    case playable = "media.playable"
    /// Its renditions are complete.
    case ready = "media.ready"
    /// Its transcode failed; the item's `error` says why.
    case failed = "media.failed"
    /// It was removed.
    case deleted = "media.deleted"
    /// Its title, description, visibility or captions were changed.
    case updated = "media.updated"
}
