/// What the console's page is told about the server, as `<meta>` elements of `index.html` (never a script, so
/// that the page runs under a strict Content-Security-Policy): the player script to load where the browser has
/// no HLS of its own, and what writes need. It never holds a key.
struct ConsolePage: Sendable, Equatable {
    /// `--player-script-url`, if any.
    let playerScriptURL: String?
    /// What writes need: `open`, or `key`, `signature` or both, separated by a space.
    let writes: String

    init(playerScriptURL: String?, writeProtection: WriteProtection) {
        self.playerScriptURL = playerScriptURL
        let needs = [writeProtection.keyDigests.isEmpty ? nil : "key", writeProtection.secret == nil ? nil : "signature"]
        writes = writeProtection.isOpen ? "open" : needs.compactMap { $0 }.joined(separator: " ")
    }

    /// `template` with `%PLAYER_SCRIPT_URL%` and `%WRITES%` replaced by the values, escaped for an attribute.
    func render(_ template: String) -> String {
        template.replacingOccurrences(of: "%PLAYER_SCRIPT_URL%", with: Self.escaped(playerScriptURL ?? ""))
            .replacingOccurrences(of: "%WRITES%", with: Self.escaped(writes))
    }

    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
