import Hummingbird

/// Refuses, with 403 and a JSON error, a write (any method but GET, HEAD and OPTIONS) sent by a browser page of
/// an origin that `CrossOriginWrites` does not allow, before the body is read.
struct CrossOriginWriteMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: CrossOriginWrites

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard ![.get, .head, .options].contains(request.method),
              let origin = request.headers[.origin],
              !policy.allows(origin: origin, authority: request.head.authority) else {
            return try await next(request, context)
        }
        throw APIError.http(.forbidden, message: CrossOriginWrites.refusal(of: origin))
    }
}
