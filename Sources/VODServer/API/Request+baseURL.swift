import HTTPTypes
import Hummingbird

extension HTTPRequest {
    /// The base of absolute URLs in responses: `publicURL` (`--public-url` without its trailing slashes), or
    /// the URL the client used to reach this server.
    func baseURL(publicURL: String?) -> String {
        if let publicURL { return publicURL }
        return "http://\(authority ?? "localhost")"
    }
}

extension Request {
    /// The base of absolute URLs in responses; see `HTTPRequest.baseURL(publicURL:)`.
    func baseURL(publicURL: String?) -> String {
        head.baseURL(publicURL: publicURL)
    }
}
