/// The media items themselves: adding, reading, listing, changing, removing and retrying them, and the
/// storage's own checks.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol MediaStore: Sendable {
    /// Adds a `pending` item.
    func insert(_ media: NewMedia) async throws -> MediaItem
    /// The item with `id`, if any.
    func media(id: Int64) async throws -> MediaItem?
    /// Items newest first, optionally only those with `status`, the private ones only when `includingPrivate`;
    /// every one when `limit` is nil.
    func list(status: MediaStatus?, includingPrivate: Bool, limit: Int?, offset: Int) async throws -> [MediaItem]
    /// How many items have each status, in one query; a status no item has is missing.
    func countByStatus() async throws -> [MediaStatus: Int]
    /// Changes the title, description and visibility; `nil` leaves a field as it is.
    func update(id: Int64, title: String?, description: String?, visibility: MediaVisibility?) async throws -> MediaItem?
    /// Removes the item and returns it as it was.
    func delete(id: Int64) async throws -> MediaItem?
    /// Moves a failed item back to `pending` with a fresh attempt count.
    /// Throws `CatalogError.notFailed` for an item in any other state.
    func retry(id: Int64) async throws -> MediaItem?
    /// The stored original of every item, by id: what the orphan sweep keeps.
    func sourcePaths() async throws -> [Int64: String]
    /// Checks that the storage answers.
    func ping() async throws
}

extension MediaStore {
    /// Every item, private ones included, newest first, optionally only those with `status`.
    public func list(status: MediaStatus?, limit: Int?, offset: Int) async throws -> [MediaItem] {
        try await list(status: status, includingPrivate: true, limit: limit, offset: offset)
    }

    /// Changes the title and description; `nil` leaves a field as it is.
    public func update(id: Int64, title: String?, description: String?) async throws -> MediaItem? {
        try await update(id: id, title: title, description: description, visibility: nil)
    }
}
