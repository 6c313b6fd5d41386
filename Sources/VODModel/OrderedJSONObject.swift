import Foundation

/// A JSON object whose keys come out in the order they were added.
///
/// Strings, numbers, booleans and nulls are written directly, without `JSONEncoder`, and `addRaw` takes JSON
/// text as it is: a list of ten thousand items is written in a fraction of a second this way. A key is a string,
/// or a `CodingKey` of a `VODModel` type (see `JSONKey.swift`), so that what clients decode names it.
package struct OrderedJSONObject {
    private var text = "{"
    /// Whether a member has been added; `text.count` would walk the text's characters at every member.
    private var hasMembers = false

    /// An empty object.
    package init() {}

    package mutating func add(_ key: some JSONKey, _ value: String?) {
        addRaw(key, value.map(Self.quoted) ?? "null")
    }

    package mutating func add(_ key: some JSONKey, _ value: Int?) {
        addRaw(key, value.map(String.init) ?? "null")
    }

    package mutating func add(_ key: some JSONKey, _ value: Int64) {
        addRaw(key, String(value))
    }

    package mutating func add(_ key: some JSONKey, _ value: Double?) {
        addRaw(key, value.map(Self.number) ?? "null")
    }

    package mutating func add(_ key: some JSONKey, _ value: Bool) {
        addRaw(key, value ? "true" : "false")
    }

    /// Adds `json`, which must already be valid JSON text.
    package mutating func addRaw(_ key: some JSONKey, _ json: String) {
        if hasMembers { text += "," }
        hasMembers = true
        text += Self.quoted(key.jsonKey) + ":" + json
    }

    /// The object's JSON text.
    package var json: String { text + "}" }

    /// A JSON string literal, escaped as `JSONEncoder` escapes it (slashes left alone).
    package static func quoted(_ string: String) -> String {
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + string + "\""
        }
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{8}": result += "\\b"
            case "\u{C}": result += "\\f"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON number as `JSONEncoder` writes a `Double`: whole values without a fraction; null if not finite.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
