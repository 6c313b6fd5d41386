import Foundation
import Testing
import VODCatalog

/// The catalog's items and captions, with the same assertions on every backend.
@Suite(.timeLimit(.minutes(2))) struct CatalogTests {
    @Test(arguments: CatalogBackend.tested)
    func insertsPendingItemsWithISOTimestamps(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("clip"))
        #expect(item.status == .pending)
        #expect(item.title == "clip")
        #expect(item.description == "about clip")
        #expect(item.progress == 0)
        #expect(item.attempts == 0)
        #expect(item.createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        #expect(item.updatedAt == item.createdAt)
        #expect(try await catalog.media(id: item.id) == item)
        #expect(try await catalog.media(id: item.id + 100) == nil)
    }

    @Test(arguments: CatalogBackend.tested)
    func keepsTheEncodedSummariesAnUploadStores(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        var media = CatalogStore.newMedia("clip")
        media.sourceSummaryJSON = #"{"height":1080,"width":1920}"#
        media.tracksJSON = #"[{"index":0,"type":"video"}]"#
        let item = try await catalog.insert(media)
        let older = try await catalog.insert(CatalogStore.newMedia("older"))
        for stored in [item, try #require(try await catalog.media(id: item.id)), try await catalog.list(status: nil, limit: nil, offset: 0)[1]] {
            #expect(stored.sourceSummaryJSON == media.sourceSummaryJSON)
            #expect(stored.tracksJSON == media.tracksJSON)
        }
        #expect(older.sourceSummaryJSON == nil && older.tracksJSON == nil)
    }

    @Test(arguments: CatalogBackend.tested)
    func listsNewestFirstWithFilterAndPaging(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        var ids: [Int64] = []
        for index in 0..<5 { ids.append(try await catalog.insert(CatalogStore.newMedia("m\(index)")).id) }
        #expect(try await catalog.list(status: nil, limit: 10, offset: 0).map(\.id) == ids.reversed())
        #expect(try await catalog.list(status: nil, limit: 2, offset: 1).map(\.id) == [ids[3], ids[2]])
        _ = try await catalog.claimNextJob(worker: "test", lease: .seconds(60))
        #expect(try await catalog.list(status: .processing, limit: 10, offset: 0).map(\.id) == [ids[0]])
        #expect(try await catalog.list(status: .pending, limit: 10, offset: 0).count == 4)
        #expect(try await catalog.list(status: .ready, limit: 10, offset: 0).isEmpty)
    }

    @Test(arguments: CatalogBackend.tested)
    func countsItemsByStatusInOneQuery(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        #expect(try await catalog.countByStatus() == [:])
        var ids: [Int64] = []
        for index in 0..<7 { ids.append(try await catalog.insert(CatalogStore.newMedia("m\(index)")).id) }
        let lease = Duration.seconds(60)
        let done = try #require(try await catalog.claimNextJob(worker: "w1", lease: lease))
        let broken = try #require(try await catalog.claimNextJob(worker: "w1", lease: lease))
        _ = try #require(try await catalog.claimNextJob(worker: "w2", lease: lease))
        #expect(try await catalog.markReady(done, result: CompletedTranscode(hlsPath: "/out/1", duration: 3, variantsJSON: "[]")))
        #expect(try await catalog.markFailed(broken, reason: "no video"))
        _ = try await catalog.delete(id: ids[6])
        #expect(try await catalog.countByStatus() == [.pending: 3, .processing: 1, .ready: 1, .failed: 1])
    }

    @Test(arguments: CatalogBackend.tested)
    func updatesAndDeletes(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        let renamed = try await catalog.update(id: item.id, title: "b", description: nil)
        #expect(renamed?.title == "b")
        #expect(renamed?.description == "about a")
        #expect(try await catalog.update(id: 999, title: "x", description: nil) == nil)
        #expect(try await catalog.delete(id: item.id)?.title == "b")
        #expect(try await catalog.delete(id: item.id) == nil)
        #expect(try await catalog.media(id: item.id) == nil)
    }

    @Test(arguments: CatalogBackend.tested)
    func idsAreNeverReused(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let first = try await catalog.insert(CatalogStore.newMedia("a"))
        _ = try await catalog.delete(id: first.id)
        let second = try await catalog.insert(CatalogStore.newMedia("b"))
        #expect(second.id > first.id)
    }

    @Test(arguments: CatalogBackend.tested)
    func sourcePathsNameEveryItemsOriginal(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let first = try await catalog.insert(CatalogStore.newMedia("a"))
        let second = try await catalog.insert(CatalogStore.newMedia("b"))
        _ = try await catalog.delete(id: first.id)
        #expect(try await catalog.sourcePaths() == [second.id: "/tmp/b.mp4"])
    }

    @Test(arguments: CatalogBackend.tested)
    func captionsBelongToTheirItemAndOneIsDefault(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let item = try await catalog.insert(CatalogStore.newMedia("a"))
        let english = try #require(try await catalog.insertCaption(NewCaption(mediaID: item.id, language: "en", name: "English", isDefault: true)))
        let french = try #require(try await catalog.insertCaption(NewCaption(mediaID: item.id, language: "fr", name: "Français", isDefault: true)))
        #expect(try await catalog.insertCaption(NewCaption(mediaID: 999, language: "en", name: "English", isDefault: false)) == nil)
        #expect(try await catalog.captions(mediaID: item.id).map(\.isDefault) == [false, true], "the new default takes over")
        let listed = try #require(try await catalog.list(status: nil, limit: nil, offset: 0).first)
        #expect(listed.captions.map(\.id) == [english.id, french.id] && listed.updatedAt >= item.updatedAt)
        #expect(try await catalog.deleteCaption(id: english.id, mediaID: 999) == nil)
        #expect(try await catalog.deleteCaption(id: english.id, mediaID: item.id)?.name == "English")
        #expect(try await catalog.media(id: item.id)?.captions.map(\.name) == ["Français"])
        _ = try await catalog.delete(id: item.id)
        #expect(try await catalog.captions(mediaID: item.id).isEmpty, "deleting the item deletes its captions")
    }
}
