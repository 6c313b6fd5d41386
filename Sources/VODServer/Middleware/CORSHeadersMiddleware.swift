import Hummingbird

/// Cross-origin access for players on other origins: every response carries the CORS headers, errors
/// included, byte-range and tus headers are exposed, and any `OPTIONS` preflight is answered directly, except
/// on `routedPreflights`, whose routes answer `OPTIONS` themselves (tus discovery) and get the preflight headers.
struct CORSHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var allowMethods: String { "GET, HEAD, POST, PATCH, DELETE, OPTIONS" }
    static var allowHeaders: String {
        "Accept, Accept-Encoding, Content-Type, Origin, Range, If-None-Match, If-Modified-Since, If-Range, "
            + "X-API-Key, X-Timestamp, X-Signature, \(TusHeaders.requestNames)"
    }
    static var exposeHeaders: String {
        "Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified, Location, \(TusHeaders.responseNames)"
    }

    /// Paths whose `OPTIONS` requests go on to their routes.
    var routedPreflights: [String] = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            var response = routedPreflights.contains(request.uri.path)
                ? try await next(request, context) : Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = Self.allowMethods
            response.headers[.accessControlAllowHeaders] =
                request.headers[.accessControlRequestHeaders] ?? Self.allowHeaders
            response.headers[.accessControlMaxAge] = "86400"
            addCORSHeaders(to: &response.headers)
            return response
        }
        var response = try await next(request, context)
        addCORSHeaders(to: &response.headers)
        return response
    }

    private func addCORSHeaders(to headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = "*"
        headers[.accessControlExposeHeaders] = Self.exposeHeaders
    }
}
