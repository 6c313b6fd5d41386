/// Makes a playback token travel with every request a player makes: each URI of a playlist (variants,
/// segments, init segments, keys, subtitles, I-frame playlists, session data) and each picture of a storyboard
/// gets `token=…` in its query, so that players that know nothing of tokens (AVPlayer, Safari, hls.js, ffmpeg)
/// send it back. URIs with a scheme (`https:`, `data:`) lead elsewhere and keep their form, so the token never
/// leaves this server.
enum PlaybackURIs {
    /// `playlist` (an HLS playlist) with `token` on each URI.
    static func playlist(_ playlist: String, token: String) -> String {
        MasterPlaylist.rewritingURIs(playlist) { adding(token, to: $0) }
    }

    /// `storyboard` (the WebVTT of `stills/storyboard.vtt`) with `token` on each cue's picture, such as
    /// `storyboard_0.jpg#xywh=0,0,160,120`.
    static func storyboard(_ storyboard: String, token: String) -> String {
        var lines = storyboard.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices.dropFirst() where lines[index - 1].contains("-->") && !lines[index].isEmpty {
            lines[index] = adding(token, to: lines[index])
        }
        return lines.joined(separator: "\n")
    }

    /// `manifest` (a DASH MPD) with `token` on each segment template (`initialization`, `media`).
    static func dash(_ manifest: String, token: String) -> String {
        var text = manifest
        for attribute in ["initialization=\"", "media=\""] {
            var parts = text.components(separatedBy: attribute)
            for index in parts.indices.dropFirst() {
                guard let end = parts[index].firstIndex(of: "\"") else { continue }
                parts[index] = adding(token, to: String(parts[index][..<end])) + parts[index][end...]
            }
            text = parts.joined(separator: attribute)
        }
        return text
    }

    /// `uri` with `token=…` in its query, before any fragment; a URI with a scheme as it is.
    static func adding(_ token: String, to uri: String) -> String {
        if MasterPlaylist.hasScheme(uri) { return uri }
        let fragmentStart = uri.firstIndex(of: "#") ?? uri.endIndex
        let reference = uri[..<fragmentStart]
        let separator = reference.contains("?") ? "&" : "?"
        return reference + separator + "token=" + token + uri[fragmentStart...]
    }
}
