import Hummingbird

/// Counts every request by the router's matched route pattern (such as `/api/media/{id}/stream/**`, never the
/// raw path, so that the labels stay few), method and status, and times it until its body is written.
///
/// It goes first on the router, so that it sees the answer the other middleware made of an error.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The route label of a request no route matched.
    static var unmatched: String { "unmatched" }

    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            var response = try await next(request, context)
            let status = response.status.code
            response.body = response.body.afterWriting {
                record(request, context: context, status: status, started: started)
            }
            return response
        } catch {
            record(request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, started: started)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: Int, started: ContinuousClock.Instant) {
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? Self.unmatched
        let handles = metrics.requests(route: route, method: request.method.rawValue, status: status)
        handles.requests.increment()
        handles.duration.record((ContinuousClock.now - started).seconds)
    }
}

extension ResponseBody {
    /// The same body, running `done` once it is written or has failed to be.
    func afterWriting(_ done: @escaping @Sendable () -> Void) -> ResponseBody {
        ResponseBody(contentLength: contentLength) { writer in
            defer { done() }
            try await write(writer)
        }
    }
}
