import Hummingbird

/// Cross-origin access for players on other origins: every response carries the CORS headers, errors
/// included, byte-range, tus, `Retry-After` and thumbnail snapping headers are exposed, and any `OPTIONS` preflight is answered directly, except
/// on `routedPreflights`, whose routes answer `OPTIONS` themselves (tus discovery) and get the preflight headers.
/// A browser's preflight (one with `Origin`) approves reads for any origin, and writes only for the origins
/// `writes` lists.
struct CORSHeadersMiddleware<Context: RequestContext>: RouterMiddleware {

    /// Paths whose `OPTIONS` requests go on to their routes.
    var routedPreflights: [String] = []
    /// The origins whose pages may write.
    var writes = CrossOriginWrites()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options {
            var response = routedPreflights.contains(request.uri.path)
                ? try await next(request, context) : Response(status: .noContent)
            CORSHeaderValues.add(to: &response.headers)
            response.headers[.vary] = "Origin"
            switch request.headers[.origin] {
            case nil:
                // Not a browser's preflight (a tus client's discovery): it lists every method, and CORS binds nobody.
                response.headers[.accessControlAllowMethods] = CORSHeaderValues.allowMethods
            case let origin? where writes.approvesPreflight(from: origin):
                response.headers[.accessControlAllowMethods] = CORSHeaderValues.allowMethods
                response.headers[.accessControlAllowOrigin] = origin
            case _?:
                response.headers[.accessControlAllowMethods] = CORSHeaderValues.readMethods
            }
            response.headers[.accessControlAllowHeaders] =
                request.headers[.accessControlRequestHeaders] ?? CORSHeaderValues.allowHeaders
            response.headers[.accessControlMaxAge] = "86400"
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
    /// The methods a preflight approves for an origin that may not write.
    static let readMethods = "GET, HEAD, OPTIONS"
    static let allowHeaders = "Accept, Accept-Encoding, Content-Type, Origin, Range, If-None-Match, If-Modified-Since, If-Range, "
        + "X-API-Key, X-Timestamp, X-Signature, \(TusHeaders.requestNames)"
    static let exposeHeaders = "Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified, Location, Retry-After, "
        + "X-Thumbnail-Time, X-Thumbnail-Width, \(TusHeaders.responseNames)"

    /// Adds what every response carries: any origin may read it, and these headers of it.
    static func add(to headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = "*"
        headers[.accessControlExposeHeaders] = exposeHeaders
    }
}
