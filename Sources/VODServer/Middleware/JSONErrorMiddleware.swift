import Hummingbird
import Logging
import VODCatalog

/// Turns every error into a JSON `{"error": "…"}` response with the right status, never a stack trace.
///
/// `APIError`s answer for themselves; Hummingbird's own errors keep their status; anything else is logged
/// and answered with a plain 500.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as CatalogUnavailable {
            context.logger.warning("catalog unavailable", metadata: ["error": "\(error)"])
            return try APIError.databaseUnavailable.response(from: request, context: context)
        } catch let error as HTTPError {
            let apiError = error.status == .notFound ? APIError.notFound : APIError.http(error.status, message: error.body)
            var response = try apiError.response(from: request, context: context)
            response.headers.append(contentsOf: error.headers.filter { $0.name != .contentType && $0.name != .contentLength })
            return response
        } catch let error as any HTTPResponseError {
            return try APIError.http(error.status, message: nil).response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try APIError.internalError.response(from: request, context: context)
        }
    }
}
