import Hummingbird

/// Cross-origin access for players on other origins: every response carries the CORS headers, errors
/// included, byte-range and tus headers are exposed, and any `OPTIONS` preflight is answered directly, except
/// on `routedPreflights`, whose routes answer `OPTIONS` themselves (tus discovery) and get the preflight headers.
struct CORSHeadersMiddleware<Context: RequestContext>: RouterMiddleware {

    /// Paths whose `OPTIONS` requests go on to their routes.
    var routedPreflights: [String] = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            var response = routedPreflights.contains(request.uri.path)
                ? try await next(request, context) : Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = CORSHeaderValues.allowMethods
            response.headers[.accessControlAllowHeaders] =
                request.headers[.accessControlRequestHeaders] ?? CORSHeaderValues.allowHeaders
            response.headers[.accessControlMaxAge] = "86400"
            CORSHeaderValues.add(to: &response.headers)
            return response
        }
        var response = try await next(request, context)
        CORSHeaderValues.add(to: &response.headers)
        return response
    }
}

/// The CORS header values, built once rather than on every response.
enum CORSHeaderValues {
    static let allowMethods = "GET, HEAD, POST, PATCH, DELETE, OPTIONS"
    static let allowHeaders = "Accept, Accept-Encoding, Content-Type, Origin, Range, If-None-Match, If-Modified-Since, If-Range, "
        + "X-API-Key, X-Timestamp, X-Signature, \(TusHeaders.requestNames)"
    static let exposeHeaders = "Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified, Location, \(TusHeaders.responseNames)"

    /// Adds what every response carries: any origin may read it, and these headers of it.
    static func add(to headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = "*"
        headers[.accessControlExposeHeaders] = exposeHeaders
    }
}
