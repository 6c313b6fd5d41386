import Foundation
import VODCatalog
import VODTestSupport

/// A catalog, an originals folder and a renditions folder kept apart in a fresh temporary folder, so that a
/// test can put either folder on a tiny or read-only file system, and `vod serve` processes run on them.
struct ServedFolders {
    let directory: TemporaryDirectory
    /// The test's own connection to the catalog the servers use.
    let catalog: SQLiteCatalog

    var root: String { directory.url.path }
    var database: String { "\(root)/catalog/vod.sqlite" }
    var media: String { "\(root)/media" }
    var output: String { "\(root)/hls_output" }

    /// The small ladder and fast preset every hardening server uses.
    static let encoding = ["--ladder", "240p:320x240@300k", "--preset", "superfast"]

    init() throws {
        directory = try TemporaryDirectory()
        catalog = try SQLiteCatalog(path: "\(directory.url.path)/catalog/vod.sqlite")
        for folder in [media, output] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// Starts `vod serve` on these folders and waits until it answers `/health`.
    func serve(_ arguments: [String] = [], tracer: [String] = []) async throws -> ServerProcess {
        let server = try ServerProcess(
            database: database, media: media, output: output, arguments: Self.encoding + arguments, tracer: tracer,
            log: directory.url.appendingPathComponent("server-\(UUID().uuidString.prefix(8)).log")
        )
        try await server.waitUntilListening()
        return server
    }

    /// Every item, oldest first.
    func items() async throws -> [MediaItem] {
        try await catalog.list(status: nil, limit: 10_000, offset: 0).reversed()
    }

    /// The entries of `folder`, hidden ones included.
    func entries(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

/// What `POST /api/media` answered.
struct UploadAnswer: Sendable {
    var status: Int
    /// The new item's id, on 201.
    var id: Int64?
    /// The `error` of a JSON error body, or "".
    var error: String

    /// Uploads `file` with curl's multipart form and `fields` (`name=value`) beside it; `rate` limits curl's
    /// sending speed, such as `200k`.
    static func send(_ file: String, to server: String, rate: String? = nil, fields: [String] = []) async throws -> UploadAnswer {
        let limit = (rate.map { ["--limit-rate", $0] } ?? []) + fields.flatMap { ["-F", $0] }
        let output = try await ExternalTool.run("curl", ["-s", "-w", "\n%{http_code}", "-F", "file=@\(file)"] + limit + ["\(server)/api/media"])
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.dropLast().joined(separator: "\n")
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        return UploadAnswer(
            status: Int(lines.last ?? "") ?? 0, id: (json["id"] as? Int).map(Int64.init), error: json["error"] as? String ?? ""
        )
    }
}

extension ServerProcess {
    /// Whether `/health` answers OK now.
    func isHealthy() async throws -> Bool {
        try await ExternalTool.run("curl", ["-sf", "-m", "5", "\(self.url)/health"]).standardOutput == "OK"
    }
}
