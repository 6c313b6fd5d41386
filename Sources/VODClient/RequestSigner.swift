import Crypto
import Foundation

/// The headers `vod serve`'s write protection asks of a write: `X-API-Key`, and with a secret `X-Timestamp` and
/// `X-Signature`, the hex HMAC-SHA256 under the secret of `METHOD "\n" TARGET "\n" BODY "\n" TIMESTAMP`, TARGET
/// being the path and query exactly as sent. The server accepts each signature once.
struct RequestSigner: Sendable {
    let apiKey: String?
    /// The signing secret's bytes.
    let secret: [UInt8]?

    init(apiKey: String?, secret: String?) {
        self.apiKey = apiKey
        self.secret = secret.map { Array($0.utf8) }
    }

    /// The headers of a write of `method` to `target` whose body is fed to the signature by `body`.
    func headers(method: String, target: String, body: (inout HMAC<SHA256>) throws -> Void) rethrows -> [(String, String)] {
        var headers = apiKey.map { [("X-API-Key", $0)] } ?? []
        guard let secret else { return headers }
        let timestamp = String(Int64(Date().timeIntervalSince1970))
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Array("\(method)\n\(target)\n".utf8))
        try body(&hmac)
        hmac.update(data: Array("\n\(timestamp)".utf8))
        headers.append(("X-Timestamp", timestamp))
        headers.append(("X-Signature", hmac.finalize().map { String(format: "%02x", $0) }.joined()))
        return headers
    }

    /// The headers of a write whose body is `body`, all of it in memory.
    func headers(method: String, target: String, body: [UInt8]) -> [(String, String)] {
        headers(method: method, target: target) { $0.update(data: body) }
    }

    /// The request target AsyncHTTPClient sends for `url`: its percent-encoded path, and its query.
    static func target(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return (path.isEmpty ? "/" : path) + (url.query.map { "?" + $0 } ?? "")
    }
}
