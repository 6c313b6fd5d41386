import Foundation
import Testing
import VODCatalog

/// A title's visibility, with the same assertions on every backend: stored at insert, changed by `update`,
/// and private titles left out of the list unless asked for.
@Suite(.timeLimit(.minutes(2))) struct VisibilityTests {
    @Test(arguments: CatalogBackend.tested)
    func storesChangesAndFiltersVisibility(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let open = try await catalog.insert(CatalogStore.newMedia("open"))
        var hidden = CatalogStore.newMedia("hidden")
        hidden.visibility = .private
        let secret = try await catalog.insert(hidden)
        #expect(open.visibility == .public, "public by default")
        #expect(secret.visibility == .private)
        #expect(try await catalog.media(id: secret.id)?.visibility == .private)

        #expect(try await catalog.list(status: nil, includingPrivate: true, limit: nil, offset: 0).map(\.id) == [secret.id, open.id])
        #expect(try await catalog.list(status: nil, includingPrivate: false, limit: nil, offset: 0).map(\.id) == [open.id])
        #expect(try await catalog.list(status: .pending, includingPrivate: false, limit: 1, offset: 0).map(\.id) == [open.id],
                "paging counts only the titles shown")
        #expect(try await catalog.list(status: nil, limit: nil, offset: 0).count == 2, "the plain list has every title")

        let renamed = try #require(try await catalog.update(id: secret.id, title: "renamed", description: nil))
        #expect(renamed.visibility == .private, "a change that names no visibility keeps it")
        let published = try #require(try await catalog.update(id: secret.id, title: nil, description: nil, visibility: .public))
        #expect(published.visibility == .public && published.title == "renamed")
        #expect(try await catalog.list(status: nil, includingPrivate: false, limit: nil, offset: 0).count == 2)
        #expect(try await catalog.update(id: 999, title: nil, description: nil, visibility: .private) == nil)
    }

    @Test func itemsAndEventsWrittenBeforeVisibilityArePublic() throws {
        let item = try MediaEvent(id: 1, type: .created, mediaID: 1, itemJSON: Self.itemWithoutVisibility, createdAt: "").item
        #expect(item.visibility == .public)
        var privateItem = item
        privateItem.visibility = .private
        let stored = try MediaEvent.encode(privateItem)
        #expect(try MediaEvent(id: 2, type: .processing, mediaID: 1, itemJSON: stored, createdAt: "").item.visibility == .private)
    }

    /// A `MediaItem` as the event log stored it before items had a visibility.
    static let itemWithoutVisibility = """
        {"attempts":0,"captions":[],"createdAt":"2025-10-21T14:11:29.798Z","id":1,"leaseToken":0,"progress":0,\
        "sourceFileName":"a.mp4","sourcePath":"/tmp/a.mp4","sourceSize":10,"status":"pending","title":"a",\
        "updatedAt":"2025-10-21T14:11:29.798Z"}
        """
}
