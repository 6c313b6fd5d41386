import Foundation

/// The files of the web console, from the package's resources (`Resources/Console`), held in memory with their
/// gzip form and an ETag: `index.html`, rendered once with what the page needs to know about this server, and the
/// scripts, styles and icon it loads from `/console/`.
struct ConsoleAssets: Sendable {
    /// The content types of the console's files, by extension.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
    ]

    /// The page at `/`.
    let index: StreamFile
    /// Every other file, by name.
    let files: [String: StreamFile]

    /// Reads the files; a build without them is broken, and stops here as `Bundle.module` would.
    init(page: ConsolePage) {
        do {
            guard let folder = Bundle.module.url(forResource: "Console", withExtension: nil) else { throw CocoaError(.fileNoSuchFile) }
            var files: [String: StreamFile] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                guard let contentType = Self.contentTypes[(name as NSString).pathExtension] else { continue }
                let url = folder.appendingPathComponent(name)
                let modified = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date ?? Date()
                var bytes = Array(try Data(contentsOf: url))
                if name == "index.html" { bytes = Array(page.render(String(decoding: bytes, as: UTF8.self)).utf8) }
                files[name] = try StreamFile(bytes: bytes, contentType: contentType, modified: modified, gzip: true)
            }
            guard let index = files.removeValue(forKey: "index.html") else { throw CocoaError(.fileNoSuchFile) }
            self.index = index
            self.files = files
        } catch {
            fatalError("The bundled console cannot be read: \(error)")
        }
    }
}
