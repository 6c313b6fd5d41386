import Hummingbird

/// Cross-origin access for players on other origins: every response carries the CORS headers, errors
/// included, byte-range headers are exposed, and any `OPTIONS` preflight is answered directly.
struct CORSHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var allowMethods: String { "GET, HEAD, POST, PATCH, DELETE, OPTIONS" }
    static var allowHeaders: String {
        "Accept, Accept-Encoding, Content-Type, Origin, Range, If-None-Match, If-Modified-Since, If-Range, "
            + "X-API-Key, X-Timestamp, X-Signature"
    }
    static var exposeHeaders: String { "Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified, Location" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            var response = Response(status: .noContent)
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
