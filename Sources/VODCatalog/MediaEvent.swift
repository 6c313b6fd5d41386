import Foundation

/// One entry of the catalog's event log: what happened to an item, and the item as it was right after.
///
/// Ids grow in the order events are committed, on both backends, so that a reader that has seen event `n`
/// misses nothing by asking for the events after `n` (`Last-Event-ID`).
public struct MediaEvent: Sendable, Equatable {
    public var id: Int64
    public var type: MediaEventType
    public var mediaID: Int64
    /// The item right after the event, as `MediaItem`'s JSON encoding (the deleted item for `media.deleted`).
    public var itemJSON: String
    /// When it was recorded, in the form of `MediaItem.createdAt`.
    public var createdAt: String

    public init(id: Int64, type: MediaEventType, mediaID: Int64, itemJSON: String, createdAt: String) {
        self.id = id
        self.type = type
        self.mediaID = mediaID
        self.itemJSON = itemJSON
        self.createdAt = createdAt
    }

    /// The item as it was right after the event.
    public var item: MediaItem {
        get throws { try JSONDecoder().decode(MediaItem.self, from: Data(itemJSON.utf8)) }
    }

    /// `item` as the event log stores it.
    public static func encode(_ item: MediaItem) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(item), as: UTF8.self)
    }
}
