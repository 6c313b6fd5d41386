import Foundation
import Testing
import VODCatalog

/// A title's segment format, with the same assertions on every backend: stored at insert, `ts` by default and for
/// rows and events written before titles had one.
@Suite(.timeLimit(.minutes(2))) struct SegmentFormatTests {
    @Test(arguments: CatalogBackend.tested)
    func storesTheSegmentFormat(_ backend: CatalogBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.remove() }
        let catalog = try await store.open()
        let plain = try await catalog.insert(CatalogStore.newMedia("plain"))
        var new = CatalogStore.newMedia("cmaf")
        new.segmentFormat = .fmp4
        let cmaf = try await catalog.insert(new)
        #expect(plain.segmentFormat == .ts, "MPEG-TS by default")
        #expect(cmaf.segmentFormat == .fmp4)
        #expect(try await catalog.media(id: cmaf.id)?.segmentFormat == .fmp4)
        #expect(try await catalog.list(status: nil, limit: nil, offset: 0).map(\.segmentFormat) == [.fmp4, .ts])
    }

    @Test func itemsWrittenBeforeSegmentFormatsAreTS() throws {
        let item = try MediaEvent(id: 1, type: .created, mediaID: 1, itemJSON: VisibilityTests.itemWithoutVisibility, createdAt: "").item
        #expect(item.segmentFormat == .ts)
        var cmaf = item
        cmaf.segmentFormat = .fmp4
        #expect(try MediaEvent(id: 2, type: .processing, mediaID: 1, itemJSON: try MediaEvent.encode(cmaf), createdAt: "").item
            .segmentFormat == .fmp4)
    }
}
