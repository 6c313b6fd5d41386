import Hummingbird

/// `GET /` and `GET /console/<file>`: the web console, a page and the ES modules, styles and icon it loads,
/// served from memory with an ETag (304 to `If-None-Match`), gzip to clients that accept it, `Cache-Control:
/// no-cache` (they change with the server's version), the console's `Content-Security-Policy` and
/// `X-Content-Type-Options: nosniff`. A file the console does not have gets the API's 404 JSON.
struct ConsoleController: Sendable {
    /// The folder the page loads its files from.
    static let assetsPath = "/console"

    let assets: ConsoleAssets
    let policy: ContentSecurityPolicy

    init(configuration: VODServerConfiguration) {
        assets = ConsoleAssets(
            page: ConsolePage(playerScriptURL: configuration.playerScriptURL, writeProtection: configuration.writeProtection)
        )
        policy = ContentSecurityPolicy(playerScriptURL: configuration.playerScriptURL, publicURL: configuration.publicBaseURL)
    }

    func addRoutes(to router: Router<VODRequestContext>) {
        router.get("/") { request, context in
            try await respond(with: assets.index, to: request, context: context)
        }
        router.get(RouterPath("\(Self.assetsPath)/**")) { request, context in
            let name = context.parameters.getCatchAll().joined(separator: "/")
            guard let file = assets.files[name] else { throw APIError.notFound }
            return try await respond(with: file, to: request, context: context)
        }
    }

    private func respond(with file: StreamFile, to request: Request, context: VODRequestContext) async throws -> Response {
        var response = try await file.response(to: request, context: context, segments: Self.noSegments)
        response.headers[.cacheControl] = "no-cache"
        response.headers[.contentSecurityPolicy] = policy.headerValue
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }

    /// The files are held in memory, so the segment cache that disk files are read through stays unused.
    private static let noSegments = SegmentCache(capacity: 0)
}

extension HTTPFields.Element.Name {
    /// `Content-Security-Policy`: where the page may load scripts, styles, media and connections from.
    static var contentSecurityPolicy: Self { Self("Content-Security-Policy")! }
    /// `X-Content-Type-Options: nosniff`: the browser takes the content type as sent.
    static var xContentTypeOptions: Self { Self("X-Content-Type-Options")! }
}
