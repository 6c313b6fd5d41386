/// An HLS attribute list (RFC 8216 §4.2): `NAME=VALUE` pairs, values quoted or not, quotes removed.
public struct AttributeList: Sendable, Equatable {
    /// Values by attribute name, with the quotes of quoted strings removed.
    public let values: [String: String]
    /// Names whose value was a quoted string.
    public let quoted: Set<String>

    /// The value of `name`.
    public subscript(name: String) -> String? { values[name] }

    /// Parses the text after a tag's colon; returns the attributes read and a message for each malformed part.
    static func parse(_ text: Substring) -> (AttributeList, [String]) {
        var values: [String: String] = [:]
        var quoted: Set<String> = []
        var problems: [String] = []
        var rest = text
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                problems.append("attribute \"\(rest)\" has no value")
                break
            }
            let name = String(rest[..<equals])
            if name.isEmpty || !name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "-" }) || !name.allSatisfy(\.isASCII) {
                problems.append("attribute name \"\(name)\" is not of A-Z, 0-9 and -")
            }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    problems.append("quoted value of \(name) is not closed")
                    break
                }
                value = body[..<close]
                quoted.insert(name)
                rest = body[body.index(after: close)...]
                if !rest.isEmpty && rest.first != "," {
                    problems.append("text after the quoted value of \(name)")
                    rest = rest.drop { $0 != "," }
                }
            } else {
                value = rest.prefix { $0 != "," }
                rest = rest.dropFirst(value.count)
            }
            if values.updateValue(String(value), forKey: name) != nil {
                problems.append("attribute \(name) appears twice")
            }
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return (AttributeList(values: values, quoted: quoted), problems)
    }
}
