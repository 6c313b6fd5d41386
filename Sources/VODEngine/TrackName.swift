import Foundation
import VODModel

/// What a person picks in a player's menu for an audio or subtitle track.
enum TrackName {
    /// The track's title, else its language in its own words ("Français"), else `fallback`.
    static func name(title: String?, language: String?, fallback: String) -> String {
        if let title = title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty { return title }
        return language.flatMap(LanguageTag.nativeName) ?? fallback
    }

    /// The names made unique by numbering repeats: "English", "English 2".
    static func unique(_ names: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return names.map { name in
            let count = seen[name, default: 0] + 1
            seen[name] = count
            return count > 1 ? "\(name) \(count)" : name
        }
    }
}
