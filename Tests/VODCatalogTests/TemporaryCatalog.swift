import Foundation
import VODCatalog

/// A catalog in a fresh temporary folder, removed by `remove()`.
struct TemporaryCatalog {
    let folder: URL
    let path: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vod-catalog-\(UUID().uuidString)")
        path = folder.appendingPathComponent("db/vod.sqlite").path
    }

    func open() throws -> SQLiteCatalog { try SQLiteCatalog(path: path) }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    static func newMedia(_ title: String) -> NewMedia {
        NewMedia(
            title: title, description: "about \(title)", sourceFileName: "\(title).mp4",
            sourcePath: "/tmp/\(title).mp4", sourceSize: 1234, duration: 3.2, probeJSON: "{}"
        )
    }
}
