import Foundation
import Logging
import Testing
import VODEngine
@testable import VODServer
import VODService

/// The OpenAPI document in the package's resources, and the Python tools that check it (`openapi-spec-validator`
/// and `schemathesis`, installed by `Scripts/setup --test` in `.build/python`).
enum OpenAPIFiles {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Sources/VODServer/Resources/openapi.json`, as committed.
    static var document: URL { packageRoot.appendingPathComponent("Sources/VODServer/Resources/openapi.json") }

    /// The Python of `.build/python`, or `VOD_TEST_PYTHON`.
    static var python: String {
        ProcessInfo.processInfo.environment["VOD_TEST_PYTHON"] ?? packageRoot.appendingPathComponent(".build/python/bin/python").path
    }

    /// The document, parsed.
    static func parsed() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: document))
        return try #require(object as? [String: Any])
    }

    /// Every operation of the document, as `METHOD /path` (`GET /api/media/{id}`).
    static func operations(of document: [String: Any]) throws -> Set<String> {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        return Set(paths.flatMap { path, item in item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
    }

    /// Every route of the router `vod serve` builds, as `METHOD /path` with a catch-all `**` written `{path}`.
    static func routedOperations() throws -> Set<String> {
        let test = try TestLibrary()
        let configuration = VODServerConfiguration(
            host: "127.0.0.1", port: 0, workers: 0, maxUploadSize: 1 << 30,
            transcodeOptions: TranscodeOptions(ladder: TestLibrary.ladder, preset: "ultrafast")
        )
        let logger = Logger(label: "vod-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let router = buildRouter(
            configuration: configuration, library: test.library, jobs: RunningJobs(),
            feed: EventFeed(events: test.library.events, logger: logger), storedJSON: StoredJSONCache(),
            uploads: TusStore(mediaDirectory: test.mediaDirectory, expiry: 3600),
            caches: TitleCaches(streamFiles: StreamFiles(catalog: test.library.catalog, segmentCacheSize: 0)), metrics: ServiceMetrics(),
            subscribers: ConnectionSlots.eventSubscribers(configuration.connectionLimits)
        )
        return Set(router.routes.map { "\($0.method.rawValue) \($0.path.description.replacingOccurrences(of: "**", with: "{path}"))" })
    }
}
