import CompressNIO
import NIOCore

/// gzip (RFC 1952) through zlib, for playlists whose compressed form is computed once and cached.
enum Gzip {
    /// The gzip stream of `input` at zlib's default level.
    static func compress(_ input: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: input)
        let compressed = try buffer.compress(with: .gzip)
        return Array(compressed.readableBytesView)
    }
}
