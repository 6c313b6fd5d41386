import Foundation
import Testing
import VODCatalog

/// SQLite's own integrity check, which start-up recovery reads.
@Suite(.timeLimit(.minutes(2))) struct CatalogMaintenanceTests {
    @Test func integrityCheckReportsADamagedFile() async throws {
        let temp = try TemporaryCatalog()
        defer { temp.remove() }
        do {
            let catalog = try temp.open()
            for index in 0..<200 { _ = try await catalog.insert(TemporaryCatalog.newMedia("item \(index)")) }
            #expect(try catalog.integrityCheck() == ["ok"])
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: temp.path))
        try handle.seek(toOffset: 2 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 2 * 4096))
        try handle.close()
        let damaged = Result { try temp.open().integrityCheck() }
        #expect((try? damaged.get()) != ["ok"], "a damaged file is not reported sound")
    }
}
