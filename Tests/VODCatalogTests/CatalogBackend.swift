import Foundation
import Logging
import Synchronization
import VODCatalog
import VODPostgres
import VODTestSupport

/// The catalog implementations the catalog and queue suites run against, with the same assertions.
enum CatalogBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    var description: String { rawValue }

    /// The backends this run tests: both, or SQLite alone in a run without external tools (`Scripts/test --fast`),
    /// which starts no PostgreSQL server.
    static var tested: [CatalogBackend] { ExternalTool.withoutTools ? [.sqlite] : allCases }

    /// A fresh, empty catalog store of this backend.
    func makeStore() async throws -> CatalogStore {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vod-catalog-\(UUID().uuidString)")
            let path = folder.appendingPathComponent("db/vod.sqlite").path
            return CatalogStore(open: { try SQLiteCatalog(path: path) }, remove: { try? FileManager.default.removeItem(at: folder) })
        case .postgres:
            let url = try await ThrowawayPostgres.shared().makeDatabase()
            let opened = Opened()
            return CatalogStore(open: {
                let catalog = try await PostgresCatalog.connect(url: url, logger: Logger(label: "vod-test", factory: { _ in SwiftLogNoOpLogHandler() }))
                opened.add(catalog)
                return catalog
            }, remove: { opened.shutdown() })
        }
    }
}

/// One empty catalog database: `open` connects to it (any number of times), `remove` deletes it.
struct CatalogStore: Sendable {
    let openCatalog: @Sendable () async throws -> any MediaCatalog
    let removeStore: @Sendable () -> Void

    init(open: @escaping @Sendable () async throws -> any MediaCatalog, remove: @escaping @Sendable () -> Void) {
        openCatalog = open
        removeStore = remove
    }

    func open() async throws -> any MediaCatalog { try await openCatalog() }

    func remove() { removeStore() }

    static func newMedia(_ title: String) -> NewMedia {
        NewMedia(
            title: title, description: "about \(title)", sourceFileName: "\(title).mp4",
            sourcePath: "/tmp/\(title).mp4", sourceSize: 1234, duration: 3.2, probeJSON: "{}"
        )
    }
}

/// The PostgreSQL catalogs a store opened, closed when the store is removed.
final class Opened: Sendable {
    private let catalogs = Mutex<[PostgresCatalog]>([])

    func add(_ catalog: PostgresCatalog) { catalogs.withLock { $0.append(catalog) } }

    func shutdown() { catalogs.withLock { $0 }.forEach { $0.shutdown() } }
}
