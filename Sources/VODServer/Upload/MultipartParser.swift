import Foundation
import Hummingbird

/// A streaming parser of `multipart/form-data` bodies (RFC 7578): it is fed the body chunk by chunk and
/// reports parts and their data as they go by, holding no more than a chunk and a delimiter in memory.
struct MultipartParser {
    /// What the parser found in the bytes fed so far.
    enum Event: Equatable {
        /// A part begins; `fileName` is set for file fields.
        case partStart(name: String, fileName: String?)
        /// Bytes of the current part's content.
        case data(ByteBuffer)
        /// The current part ended.
        case partEnd
    }

    /// The body is not well-formed multipart.
    struct Malformed: Error {
        let reason: String
    }

    private enum State {
        case preamble
        case afterDelimiter
        case headers
        case content
        case done
    }

    private static let maximumHeaderBytes = 16 * 1024
    private static let lineEnd: [UInt8] = [13, 10]
    private static let headersEnd: [UInt8] = [13, 10, 13, 10]

    private let delimiter: [UInt8]
    private var state = State.preamble
    private var pending: [UInt8]

    /// - Parameter boundary: the `boundary` parameter of the Content-Type.
    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // The body's first delimiter has no CRLF before it: supply one.
        pending = [13, 10]
    }

    /// The boundary of a `multipart/form-data` Content-Type, or nil for any other type.
    static func boundary(fromContentType contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            let value = parameter.dropFirst("boundary=".count)
            let boundary = value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? value.dropFirst().dropLast() : value
            return boundary.isEmpty || boundary.count > 70 ? nil : String(boundary)
        }
        return nil
    }

    /// Whether the closing delimiter has been seen.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Feeds the next chunk of the body and returns the events it completes.
    mutating func feed(_ chunk: ByteBuffer) throws -> [Event] {
        pending.append(contentsOf: chunk.readableBytesView)
        var events: [Event] = []
        while try step(&events) {}
        return events
    }

    /// Runs one state transition; returns false when more bytes are needed.
    private mutating func step(_ events: inout [Event]) throws -> Bool {
        switch state {
        case .preamble:
            guard let index = Self.firstIndex(of: delimiter, in: pending) else {
                pending.removeFirst(max(0, pending.count - delimiter.count))
                return false
            }
            pending.removeFirst(index + delimiter.count)
            state = .afterDelimiter
        case .afterDelimiter:
            guard pending.count >= 2 else { return false }
            if pending[0] == 0x2d, pending[1] == 0x2d {
                pending.removeAll()
                state = .done
                return false
            }
            guard let lineEnd = Self.firstIndex(of: Self.lineEnd, in: pending) else {
                guard pending.count < 1024 else { throw Malformed(reason: "garbage after a boundary") }
                return false
            }
            pending.removeFirst(lineEnd + Self.lineEnd.count)
            state = .headers
        case .headers:
            guard let end = Self.firstIndex(of: Self.headersEnd, in: pending) else {
                guard pending.count <= Self.maximumHeaderBytes else { throw Malformed(reason: "part headers too long") }
                return false
            }
            let headers = String(decoding: pending[..<end], as: UTF8.self)
            pending.removeFirst(end + Self.headersEnd.count)
            events.append(try Self.partStart(headers))
            state = .content
        case .content:
            if let index = Self.firstIndex(of: delimiter, in: pending) {
                if index > 0 { events.append(.data(ByteBuffer(bytes: pending[..<index]))) }
                events.append(.partEnd)
                pending.removeFirst(index + delimiter.count)
                state = .afterDelimiter
            } else {
                let safe = pending.count - (delimiter.count - 1)
                if safe > 0 {
                    events.append(.data(ByteBuffer(bytes: pending[..<safe])))
                    pending.removeFirst(safe)
                }
                return false
            }
        case .done:
            pending.removeAll()
            return false
        }
        return true
    }

    /// Where `needle` first occurs in `haystack`: memchr finds each candidate first byte, memcmp checks the rest.
    /// The generic `firstRange(of:)` compared element by element at about 6 MB/s, which made a 2 GiB form take
    /// six minutes.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pattern in
                let base = hay.baseAddress!
                var start = 0
                let last = hay.count - pattern.count
                while start <= last, let found = memchr(base + start, Int32(first), last - start + 1) {
                    let index = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(found, pattern.baseAddress!, pattern.count) == 0 { return index }
                    start = index + 1
                }
                return nil
            }
        }
    }

    /// Reads `Content-Disposition: form-data; name="…"; filename="…"` from a part's header block.
    private static func partStart(_ headers: String) throws -> Event {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition"
            else { continue }
            let parameters = Self.parameters(String(pair[1]))
            guard let name = parameters["name"] else { break }
            return .partStart(name: name, fileName: parameters["filename"])
        }
        throw Malformed(reason: "a part has no Content-Disposition name")
    }

    private static func parameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        var scanner = Substring(value)
        while let equals = scanner.firstIndex(of: "=") {
            let key = scanner[..<equals].split(separator: ";").last?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            scanner = scanner[scanner.index(after: equals)...].drop { $0 == " " }
            let parsed: Substring
            if scanner.first == "\"" {
                let body = scanner.dropFirst()
                let close = body.firstIndex(of: "\"") ?? body.endIndex
                parsed = body[..<close]
                scanner = close < body.endIndex ? body[body.index(after: close)...] : body[close...]
            } else {
                let close = scanner.firstIndex(of: ";") ?? scanner.endIndex
                parsed = scanner[..<close]
                scanner = scanner[close...]
            }
            result[key] = String(parsed)
        }
        return result
    }
}
