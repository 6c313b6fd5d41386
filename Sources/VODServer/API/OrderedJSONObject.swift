import Foundation

/// A JSON object whose keys come out in the order they were added; each value is encoded by `JSONEncoder`.
struct OrderedJSONObject {
    private var members: [String] = []
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    mutating func add(_ key: String, _ value: some Encodable) throws {
        let name = String(decoding: try encoder.encode(key), as: UTF8.self)
        members.append("\(name):\(String(decoding: try encoder.encode(value), as: UTF8.self))")
    }

    var text: String { "{" + members.joined(separator: ",") + "}" }
}
