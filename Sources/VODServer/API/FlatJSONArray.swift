/// A JSON array of flat objects (members that are strings, numbers, booleans or null, no nesting), read without
/// `JSONDecoder`, whose per-call cost is what a cold list of ten thousand items would otherwise spend its time
/// on. It reads what this service writes: anything it does not expect (nested values, `\u` escapes, bad
/// syntax) makes it give up with nil, and the caller decodes the text the ordinary way.
struct FlatJSONArray {
    /// One member's value; numbers keep their text.
    enum Value: Equatable {
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    /// The array's objects, in order, or nil if `json` is not such an array.
    static func objects(in json: String) -> [[String: Value]]? {
        var reader = Reader(bytes: Array(json.utf8))
        return reader.array()
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func array() -> [[String: Value]]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var objects: [[String: Value]] = []
            if take(UInt8(ascii: "]")) { return end() ? objects : nil }
            repeat {
                guard let object = object() else { return nil }
                objects.append(object)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) && end() ? objects : nil
        }

        private mutating func object() -> [String: Value]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: Value] = [:]
            if take(UInt8(ascii: "}")) { return members }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = value() else { return nil }
                members[key] = value
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? members : nil
        }

        private mutating func value() -> Value? {
            skipSpaces()
            guard index < bytes.endIndex else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            default:
                let start = index
                while index < bytes.endIndex, Self.isNumberByte(bytes[index]) { index += 1 }
                return start == index ? nil : .number(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }

        /// A string whose escapes are at most `\"`, `\\` and `\/`.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var text: [UInt8] = []
            text.reserveCapacity(32)
            while index < bytes.endIndex {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\")
                        || bytes[index] == UInt8(ascii: "/") else { return nil }
                    text.append(bytes[index])
                    index += 1
                case 0..<0x20: return nil
                default: text.append(byte)
                }
            }
            return nil
        }

        private mutating func word(_ word: String) -> Bool {
            for byte in word.utf8 {
                guard index < bytes.endIndex, bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard index < bytes.endIndex, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func end() -> Bool {
            skipSpaces()
            return index == bytes.endIndex
        }

        private mutating func skipSpaces() {
            while index < bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        private static func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        }
    }
}
