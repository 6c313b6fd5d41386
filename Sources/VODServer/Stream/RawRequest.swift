import NIOCore

/// One read of a connection that is exactly one plain HTTP/1.1 request head, as `StreamRawPath` takes it: `GET`
/// or `HEAD`, a target without query, well-formed fields, none of which asks for a range, a condition, a body,
/// an upgrade or the connection's close. Anything else (nil) is left to the HTTP/1 decoder, which decides.
struct RawRequest {
    let isHead: Bool
    let path: String
    /// Whether an `Accept-Encoding` field accepts gzip.
    let acceptsGzip: Bool

    /// Reads larger than this are left to the decoder.
    static let maximumSize = 4096

    /// Fields whose presence makes a request more than a plain read of a whole file on a kept-alive connection.
    private static let declined: [[UInt8]] = [
        "range", "if-none-match", "if-modified-since", "if-range", "if-match", "if-unmodified-since",
        "content-length", "transfer-encoding", "expect", "upgrade", "te", "trailer",
    ].map { Array($0.utf8) }
    private static let connection = Array("connection".utf8)
    private static let acceptEncoding = Array("accept-encoding".utf8)
    private static let keepAlive = Array("keep-alive".utf8)
    private static let version = Array(" HTTP/1.1\r\n".utf8)

    init?(_ buffer: ByteBuffer) {
        guard buffer.readableBytes <= Self.maximumSize, Self.endsAtHeadEnd(buffer),
              let parsed = buffer.withUnsafeReadableBytes(Self.parse) else { return nil }
        self = parsed
    }

    private init(isHead: Bool, path: String, acceptsGzip: Bool) {
        self.isHead = isHead
        self.path = path
        self.acceptsGzip = acceptsGzip
    }

    /// Whether `buffer` ends with the empty line that ends a request head.
    static func endsAtHeadEnd(_ buffer: ByteBuffer) -> Bool {
        buffer.readableBytes >= 4 && buffer.getBytes(at: buffer.writerIndex - 4, length: 4) == [13, 10, 13, 10]
    }

    /// One pass over the bytes, which end with CR LF CR LF: the request line, then each field line up to the empty
    /// one, which must be the last.
    private static func parse(_ bytes: UnsafeRawBufferPointer) -> RawRequest? {
        let isHead: Bool
        var index: Int
        if bytes.starts(with: "GET ".utf8) {
            (isHead, index) = (false, 4)
        } else if bytes.starts(with: "HEAD ".utf8) {
            (isHead, index) = (true, 5)
        } else {
            return nil
        }
        let target = index
        while index < bytes.count, bytes[index] != 32 {
            guard isTargetByte(bytes[index]) else { return nil }
            index += 1
        }
        guard index > target, bytes[target] == 47, bytes[index...].starts(with: version) else { return nil }
        let path = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[target..<index]), as: UTF8.self)
        index += version.count
        var acceptsGzip = false
        while bytes[index] != 13 {
            let start = index
            var colon: Int?
            while bytes[index] != 13 {
                let byte = bytes[index]
                if colon == nil, byte == 58 {
                    colon = index
                } else if colon == nil ? !isTokenByte(byte) : !isValueByte(byte) {
                    return nil
                }
                index += 1
            }
            guard bytes[index + 1] == 10, let colon, colon > start else { return nil }
            let name = UnsafeRawBufferPointer(rebasing: bytes[start..<colon])
            let value = trimmed(UnsafeRawBufferPointer(rebasing: bytes[(colon + 1)..<index]))
            if declined.contains(where: { isName($0, name) }) { return nil }
            if isName(connection, name) {
                guard isName(keepAlive, value) else { return nil }
            } else if isName(acceptEncoding, name) {
                acceptsGzip = acceptsGzip || StreamFile.acceptsGzip([String(decoding: value, as: UTF8.self)])
            }
            index += 2
        }
        guard index + 2 == bytes.count else { return nil }
        return RawRequest(isHead: isHead, path: path, acceptsGzip: acceptsGzip)
    }

    /// Whether `bytes` spell `lowercase` in any case.
    private static func isName(_ lowercase: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        lowercase.count == bytes.count && zip(lowercase, bytes).allSatisfy { expected, byte in
            expected == ((65...90).contains(byte) ? byte | 0x20 : byte)
        }
    }

    /// `bytes` without the spaces and tabs around them.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var (start, end) = (0, bytes.count)
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Visible ASCII, as a request target is written (RFC 9112 §3.2).
    private static func isTargetByte(_ byte: UInt8) -> Bool { byte > 32 && byte < 127 }

    /// The characters of a field name (RFC 9110 §5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// Visible ASCII, spaces and tabs: a field value without obsolete bytes (RFC 9110 §5.5).
    private static func isValueByte(_ byte: UInt8) -> Bool { byte == 9 || (byte >= 32 && byte < 127) }
}
