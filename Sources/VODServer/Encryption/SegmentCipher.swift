import Crypto
import Foundation
import _CryptoExtras

/// Encrypts a title's segments as HLS `METHOD=AES-128` wants: AES-128-CBC with PKCS#7 padding, with the title's
/// key. Each segment's IV is the first 16 bytes of the SHA-256 of its file name, written in the `EXT-X-KEY` tag
/// before it in the media playlist (`EncryptedPlaylist`), so that any segment can be encrypted again, the same
/// each time, from its name alone. (A name repeats across renditions, as a media sequence number does, and the
/// IV with it: what HLS's default IV does too.)
struct SegmentCipher: Sendable {
    private let key: SymmetricKey

    /// A cipher with the title's 16-byte `key`.
    init(key: [UInt8]) {
        self.key = SymmetricKey(data: key)
    }

    /// The IV of the segment named `name` (its last path component, such as `segment_003.ts`).
    static func iv(ofSegment name: some StringProtocol) -> [UInt8] {
        Array(SHA256.hash(data: Array(name.utf8)).prefix(16))
    }

    /// `plaintext`, the segment named `name`, encrypted.
    func encrypt(_ plaintext: some DataProtocol, segment name: some StringProtocol) throws -> [UInt8] {
        Array(try AES._CBC.encrypt(plaintext, using: key, iv: try AES._CBC.IV(ivBytes: Self.iv(ofSegment: name))))
    }
}
