import Foundation
import Hummingbird

/// `GET /api/openapi.json`: the OpenAPI 3.1 document of every endpoint, kept in the package's resources and
/// served from memory with an ETag (304 to `If-None-Match`), gzip to clients that accept it, and
/// `Cache-Control: no-cache`, since the document changes with the server's version.
struct OpenAPIController: Sendable {
    /// The path it answers on.
    static let path = "/api/openapi.json"

    /// The document, read from the bundle once.
    let document: StreamFile

    /// Reads the document; a build without it is broken, and stops here as `Bundle.module` would.
    init() {
        do {
            guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else { throw CocoaError(.fileNoSuchFile) }
            let modified = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
            document = try StreamFile(
                bytes: Array(try Data(contentsOf: url)), contentType: "application/json; charset=utf-8",
                modified: modified ?? Date(), gzip: true
            )
        } catch {
            fatalError("The bundled openapi.json cannot be read: \(error)")
        }
    }

    func addRoutes(to router: Router<VODRequestContext>) {
        router.get(RouterPath(Self.path)) { request, context in
            var response = try await document.response(to: request, context: context, segments: Self.noSegments)
            response.headers[.cacheControl] = "no-cache"
            return response
        }
    }

    /// The document is held in memory, so the segment cache that disk files are read through stays unused.
    private static let noSegments = SegmentCache(capacity: 0)
}
