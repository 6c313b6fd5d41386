/// One message of a Server-Sent Events stream.
struct ServerSentEvent: Equatable {
    /// The `id:` of the message, or the last one before it (ids carry over, as in browsers' `EventSource`).
    var id: String?
    /// The `event:` field; "message" when absent.
    var type: String
    /// The `data:` lines, joined with line feeds.
    var data: String
}

/// Reads a Server-Sent Events stream as it arrives, in chunks cut anywhere, into messages, as the HTML standard's
/// event stream interpretation does: lines end with CR, LF or CRLF, `:` starts a comment, a blank line dispatches.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    /// The previous chunk ended with CR, so a LF starting this one ends nothing.
    private var afterCarriageReturn = false
    private var lastID: String?
    private var type: String?
    private var data: [String] = []
    /// Complete messages not yet taken.
    private var ready: [ServerSentEvent] = []
    /// The reconnection delay the stream asked for with `retry:`, in milliseconds.
    private(set) var retry: Int?

    /// Takes in the next bytes of the stream.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where afterCarriageReturn:
                afterCarriageReturn = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCarriageReturn = byte == UInt8(ascii: "\r")
                endLine()
            default:
                afterCarriageReturn = false
                line.append(byte)
            }
        }
    }

    /// The oldest complete message not yet taken.
    mutating func next() -> ServerSentEvent? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    private mutating func endLine() {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        guard line.first != UInt8(ascii: ":") else { return }
        let text = String(decoding: line, as: UTF8.self)
        let colon = text.firstIndex(of: ":")
        let field = colon.map { String(text[..<$0]) } ?? text
        var value = colon.map { String(text[text.index(after: $0)...]) } ?? ""
        if value.hasPrefix(" ") { value.removeFirst() }
        switch field {
        case "data": data.append(value)
        case "event": type = value
        case "id" where !value.contains("\0"): lastID = value
        case "retry" where !value.isEmpty && value.allSatisfy(\.isASCIIDigit): retry = Int(value)
        default: break
        }
    }

    private mutating func dispatch() {
        defer {
            data.removeAll()
            type = nil
        }
        guard !data.isEmpty else { return }
        ready.append(ServerSentEvent(id: lastID, type: type ?? "message", data: data.joined(separator: "\n")))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
