import Foundation
import Testing
import VODCatalog

@Suite struct SQLiteCatalogTests {
    @Test func opensInWALModeAndMigratesOnce() throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        #expect(try catalog.journalMode() == "wal")
        _ = try temp.open()
    }

    @Test func insertsPendingItemsWithISOTimestamps() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        let item = try await catalog.insert(TemporaryCatalog.newMedia("clip"))
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

    @Test func listsNewestFirstWithFilterAndPaging() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        var ids: [Int64] = []
        for index in 0..<5 { ids.append(try await catalog.insert(TemporaryCatalog.newMedia("m\(index)")).id) }
        #expect(try await catalog.list(status: nil, limit: 10, offset: 0).map(\.id) == ids.reversed())
        #expect(try await catalog.list(status: nil, limit: 2, offset: 1).map(\.id) == [ids[3], ids[2]])
        _ = try await catalog.claimNextJob()
        #expect(try await catalog.list(status: .processing, limit: 10, offset: 0).map(\.id) == [ids[0]])
        #expect(try await catalog.list(status: .pending, limit: 10, offset: 0).count == 4)
        #expect(try await catalog.list(status: .ready, limit: 10, offset: 0).isEmpty)
    }

    @Test func updatesAndDeletes() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        let item = try await catalog.insert(TemporaryCatalog.newMedia("a"))
        let renamed = try await catalog.update(id: item.id, title: "b", description: nil)
        #expect(renamed?.title == "b")
        #expect(renamed?.description == "about a")
        #expect(try await catalog.update(id: 999, title: "x", description: nil) == nil)
        #expect(try await catalog.delete(id: item.id)?.title == "b")
        #expect(try await catalog.delete(id: item.id) == nil)
        #expect(try await catalog.media(id: item.id) == nil)
    }

    @Test func idsAreNeverReused() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        let first = try await catalog.insert(TemporaryCatalog.newMedia("a"))
        _ = try await catalog.delete(id: first.id)
        let second = try await catalog.insert(TemporaryCatalog.newMedia("b"))
        #expect(second.id > first.id)
    }
}
