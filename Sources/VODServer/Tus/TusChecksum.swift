import Crypto
import Foundation

/// The `Upload-Checksum` of a chunk, `sha1 <base64 digest>`, checked as the chunk streams in.
struct TusChecksum {
    let expected: [UInt8]
    private var hash = Insecure.SHA1()

    /// Parses the header; 400 for another algorithm or a digest that is not base64 of 20 bytes.
    init(header: String) throws {
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == TusHeaders.checksumAlgorithms else {
            throw APIError.badRequest("Upload-Checksum must be 'sha1 <base64 digest>'; sha1 is the only algorithm supported")
        }
        guard let digest = Data(base64Encoded: String(parts[1])), digest.count == Insecure.SHA1.byteCount else {
            throw APIError.badRequest("The Upload-Checksum digest is not base64 of a SHA-1")
        }
        expected = Array(digest)
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hash.update(bufferPointer: bytes)
    }

    /// Whether the bytes taken in have the expected digest.
    var matches: Bool { Array(hash.finalize()) == expected }
}
