import Foundation

/// Rewrites the URIs of a master playlist for the URL it is served at.
///
/// The contract serves the master at `/api/media/:id/stream`, without a trailing slash, so a player resolves
/// `720p/index.m3u8` against `/api/media/:id/` (RFC 3986 §5.2). Prefixing relative URIs with `stream/` makes
/// them resolve to `/api/media/:id/stream/720p/index.m3u8`, where the variants are served.
enum MasterPlaylist {
    static func rewritingURIs(_ playlist: String, prefix: String) -> String {
        rewritingURIs(playlist) { prefixing($0, with: prefix) }
    }

    /// `playlist` with `transform` applied to every URI: each line that is not a tag or blank, and the
    /// `URI="…"` attribute of each tag that has one (`#EXT-X-MEDIA`, `#EXT-X-I-FRAME-STREAM-INF`, `#EXT-X-MAP`,
    /// `#EXT-X-KEY`, `#EXT-X-SESSION-DATA`, …).
    static func rewritingURIs(_ playlist: String, _ transform: (String) -> String) -> String {
        var lines = playlist.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices {
            let line = lines[index]
            if line.hasPrefix("#") {
                lines[index] = rewritingURIAttribute(line, transform)
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                lines[index] = transform(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Rewrites `URI="…"` in a tag such as `#EXT-X-I-FRAME-STREAM-INF` or `#EXT-X-MEDIA`.
    private static func rewritingURIAttribute(_ line: String, _ transform: (String) -> String) -> String {
        guard let start = line.range(of: "URI=\"") else { return line }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return line }
        return line[..<start.upperBound] + transform(String(rest[..<end])) + rest[end...]
    }

    /// Prefixes a relative-path reference; absolute URIs (any scheme, such as `https:` or `data:`) and
    /// absolute paths resolve the same from anywhere.
    private static func prefixing(_ uri: String, with prefix: String) -> String {
        if uri.hasPrefix("/") || hasScheme(uri) { return uri }
        return prefix + uri
    }

    /// Whether `uri` starts with a scheme, `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` (RFC 3986 §3.1).
    static func hasScheme(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":"), let first = uri.first, first.isASCII, first.isLetter else { return false }
        return uri[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
