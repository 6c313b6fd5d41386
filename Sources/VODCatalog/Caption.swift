/// A caption file added to a ready item after its transcode, as the catalog keeps it.
public struct Caption: Sendable, Equatable, Codable {
    public var id: Int64
    public var mediaID: Int64
    /// The RFC 5646 language tag.
    public var language: String
    /// The NAME the master gives it, unique among the item's subtitles.
    public var name: String
    /// Whether players show it when subtitles are on and the viewer has not picked one; at most one per item.
    public var isDefault: Bool
    /// When it was added, in the form of `MediaItem.createdAt`.
    public var createdAt: String

    public init(id: Int64, mediaID: Int64, language: String, name: String, isDefault: Bool, createdAt: String) {
        self.id = id
        self.mediaID = mediaID
        self.language = language
        self.name = name
        self.isDefault = isDefault
        self.createdAt = createdAt
    }
}

/// What is needed to add a caption to an item.
public struct NewCaption: Sendable, Equatable {
    public var mediaID: Int64
    public var language: String
    public var name: String
    public var isDefault: Bool

    public init(mediaID: Int64, language: String, name: String, isDefault: Bool) {
        self.mediaID = mediaID
        self.language = language
        self.name = name
        self.isDefault = isDefault
    }
}

extension [MediaItem] {
    /// These items, each with the captions of `captions` that belong to it.
    public func attaching(_ captions: [Caption]) -> [MediaItem] {
        guard !captions.isEmpty else { return self }
        let byMedia = Dictionary(grouping: captions, by: \.mediaID)
        return map { item in
            var item = item
            item.captions = byMedia[item.id] ?? []
            return item
        }
    }
}
