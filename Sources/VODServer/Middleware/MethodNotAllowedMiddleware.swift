import Hummingbird

/// Answers a request that no route takes with 405 and `Allow` when its path has routes for other methods;
/// requests for paths that no route has stay 404.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = VODRequestContext
    let routes: RouteMethods
    /// The endpoint path Hummingbird's router gives a request that no route took.
    private static let unrouted = "NotFound"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == Self.unrouted {
            let allowed = routes.methods(for: request.uri.path)
            guard !allowed.isEmpty else { throw error }
            var response = try APIError.http(.methodNotAllowed, message: "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))")
                .response(from: request, context: context)
            response.headers[.allow] = allowed.joined(separator: ", ")
            return response
        }
    }
}
