import Hummingbird
import VODCatalog

/// Lets a write through only with the key and signature `WriteProtection` asks for, a signature being taken once
/// by all the nodes that share `signatures` (the catalog); 401 otherwise.
struct WriteProtectionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// How the body of a signed write is checked.
    enum Body: Sendable {
        /// Read in full, up to `limit` bytes, and checked before the handler runs: for handlers that may act
        /// without reading the body.
        case collected(limit: Int)
        /// Checked as the handler streams it, failing at its end: for uploads, which read the whole body
        /// before acting.
        case streamed
    }

    let protection: WriteProtection
    /// The signatures already used.
    let signatures: any SignatureLedger
    let body: Body

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let signature = try await protection.check(request, now: WriteProtection.now, signatures: signatures) else {
            return try await next(request, context)
        }
        var request = request
        switch body {
        case .collected(let limit):
            try await signature.verify(body: try await request.collectBody(upTo: limit), now: WriteProtection.now)
        case .streamed:
            request.body = RequestBody(asyncSequence: SignedBody(base: request.body, signature: signature))
        }
        return try await next(request, context)
    }
}
