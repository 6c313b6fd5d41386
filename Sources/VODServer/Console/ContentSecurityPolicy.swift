import Foundation

/// The `Content-Security-Policy` of the web console: scripts, styles and everything else from this server only,
/// with no inline script or style; the operator's player script (`--player-script-url`) is allowed from its origin,
/// and the stream, its pictures and playlists from `--public-url`'s origin when they are served from elsewhere (a CDN).
///
/// Blob media is allowed for a player script that feeds Media Source Extensions (hls.js); it runs without workers.
struct ContentSecurityPolicy: Sendable, Equatable {
    /// The `script-src` source of the player script, if one is configured.
    let playerScript: String?
    /// The origin of `--public-url`, if one is configured.
    let publicOrigin: String?

    init(playerScriptURL: String?, publicURL: String?) {
        playerScript = playerScriptURL.flatMap(Self.source(ofScript:))
        publicOrigin = publicURL.flatMap(Self.origin(of:))
    }

    /// The header's value.
    var headerValue: String {
        let media = ["'self'", publicOrigin].compactMap { $0 }.joined(separator: " ")
        let scripts = Array(Set(["'self'", playerScript].compactMap { $0 })).sorted().joined(separator: " ")
        return [
            "default-src 'self'",
            "img-src \(media) data:",
            "media-src \(media) blob:",
            "connect-src \(media)",
            "style-src 'self'",
            "script-src \(scripts)",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'self'",
        ].joined(separator: "; ")
    }

    /// What `script-src` must name for a script at `url`: its origin for an absolute http or https URL, `'self'`
    /// for a path on this server; nil for anything else, which cannot be a player script.
    static func source(ofScript url: String) -> String? {
        if url.hasPrefix("/") && !url.hasPrefix("//") { return "'self'" }
        return origin(of: url)
    }

    /// `scheme://host[:port]` of an absolute http or https URL.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else { return nil }
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(name.lowercased())\(components.port.map { ":\($0)" } ?? "")"
    }
}

extension VODServerConfiguration {
    /// Whether `url` can be the console's player script (`playerScriptURL`): an absolute http or https URL, or a
    /// path on this server such as `/static/hls.min.js`.
    public static func isUsablePlayerScriptURL(_ url: String) -> Bool {
        ContentSecurityPolicy.source(ofScript: url) != nil
    }
}
