import Foundation
import Testing
import VODCatalog

@Suite(.timeLimit(.minutes(2))) struct SQLiteCatalogTests {
    @Test func opensInWALModeAndMigratesOnce() throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        let catalog = try temp.open()
        #expect(try catalog.journalMode() == "wal")
        _ = try temp.open()
    }
}
