/// Who may see and play a media item.
///
/// The raw values are the `visibility` strings of the media JSON, of uploads and of `PATCH /api/media/:id`.
public enum MediaVisibility: String, Sendable, Codable, CaseIterable {
    /// Listed and playable by anyone: the client contract's behaviour, and the default.
    case `public`
    /// Listed only to requests with an API key; its stream, pictures, captions and events need a playback token.
    case `private`
}

extension KeyedDecodingContainer {
    /// A visibility that is missing reads as `public`: items and events written before titles had one, and
    /// servers that predate it, are public.
    public func decode(_ type: MediaVisibility.Type, forKey key: Key) throws -> MediaVisibility {
        try decodeIfPresent(type, forKey: key) ?? .public
    }
}
