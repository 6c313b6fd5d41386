import Foundation
import HTTPTypes

/// Which web pages may write: a browser sends `Origin` with every cross-origin request, and a page on another
/// origin may upload to, change or delete from this server only if that origin is listed (`--cors-origin`). The
/// server's own pages (the web console) and clients that are not browsers (curl, apps, `vod import`), which send no
/// `Origin`, are not affected, and reads stay open to every origin (`Access-Control-Allow-Origin: *`).
///
/// Without this, any page a developer visits could upload to, or delete from, a server on their machine whose writes
/// are open: a form's `POST` needs no preflight, and a preflight answered `*` approves a `DELETE`.
public struct CrossOriginWrites: Sendable, Equatable {
    /// The listed origins, as `scheme://host[:port]` in lower case.
    public let allowedOrigins: Set<String>
    /// The origin of the server's public URL, which is its own.
    let publicOrigin: String?

    /// Lists `origins` (such as `https://app.example.com`), whose pages may write; `publicURL` is the server's own.
    public init(allowedOrigins origins: [String] = [], publicURL: String? = nil) {
        allowedOrigins = Set(origins.compactMap(Self.normalized))
        publicOrigin = publicURL.flatMap(Self.normalized)
    }

    /// `origin` as `scheme://host[:port]` in lower case, without a default port or a path; nil for anything that
    /// is not an http or https origin (`null`, sent by sandboxed and `file:` pages, among them).
    public static func normalized(_ origin: String) -> String? {
        guard let components = URLComponents(string: origin.trimmingCharacters(in: .whitespaces)),
              let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }

    /// Whether a write with these request fields may go on: it carries no `Origin` (not from a browser page), or
    /// its origin is the server's own (the authority the request was sent to, or the public URL's), or listed.
    func allows(origin: String?, authority: String?) -> Bool {
        guard let origin else { return true }
        guard let normalized = Self.normalized(origin) else { return false }
        if allowedOrigins.contains(normalized) || normalized == publicOrigin { return true }
        guard let authority else { return false }
        return ["http", "https"].contains { Self.normalized("\($0)://\(authority)") == normalized }
    }

    /// Whether a preflight from `origin` may be approved for writes: only a listed origin's.
    func approvesPreflight(from origin: String?) -> Bool {
        origin.flatMap(Self.normalized).map(allowedOrigins.contains) ?? false
    }

    /// The 403 answer's message for a write from `origin`.
    static func refusal(of origin: String) -> String {
        "Writes from pages on \(origin) are not allowed: list the origin with --cors-origin (VOD_CORS_ORIGINS) to allow them"
    }
}
