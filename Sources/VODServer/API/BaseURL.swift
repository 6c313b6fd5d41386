import Hummingbird

/// The base of the absolute URLs in responses.
enum BaseURL {
    /// `--public-url` (without a trailing slash), or the URL the client used to reach this server.
    static func of(_ request: Request, publicURL: String?) -> String {
        publicURL ?? "http://\(request.head.authority ?? "localhost")"
    }
}
