/// The captions added to media items after upload.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol CaptionStore: Sendable {
    /// Adds a caption to an item, clearing the other captions' default when it is the default; nil when there
    /// is no such item.
    func insertCaption(_ caption: NewCaption) async throws -> Caption?
    /// The captions of an item, oldest first.
    func captions(mediaID: Int64) async throws -> [Caption]
    /// Removes a caption of an item and returns it as it was; nil when the item has no such caption.
    func deleteCaption(id: Int64, mediaID: Int64) async throws -> Caption?
}
