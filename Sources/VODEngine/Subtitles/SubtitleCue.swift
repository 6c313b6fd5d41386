import Foundation

/// One cue of a text subtitle track, on the title's timeline, as WebVTT can carry it: plain text, lines kept.
struct SubtitleCue: Sendable, Equatable {
    var start: Double
    var end: Double
    var text: String

    /// The text of an ASS dialogue event (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`):
    /// override blocks such as `{\i1}` dropped, `\N` as a line break, `\h` as a space, and what WebVTT reserves
    /// escaped. Nil when nothing is left to show.
    static func text(ofDialogue dialogue: String) -> String? {
        let fields = dialogue.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        guard fields.count == 9 else { return nil }
        var text = ""
        var inOverride = false
        for character in fields[8] {
            switch character {
            case "{": inOverride = true
            case "}" where inOverride: inOverride = false
            default: if !inOverride { text.append(character) }
            }
        }
        text = text.replacingOccurrences(of: "\\N", with: "\n").replacingOccurrences(of: "\\n", with: "\n")
            .replacingOccurrences(of: "\\h", with: " ")
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
