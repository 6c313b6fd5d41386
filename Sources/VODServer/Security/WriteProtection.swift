import Crypto
import Foundation

/// Who may change the catalog: uploads, `PATCH`, `DELETE` and retries. Reads are always public.
///
/// With API keys configured, a write needs `X-API-Key` with one of them. With a signing secret configured, a
/// write also needs `X-Timestamp` and `X-Signature` (see `WriteProtection+signature.swift`). With neither, the
/// server is in open development mode and anyone can write.
///
/// Keys are held only as SHA-256 digests; the description tells what is required, never a key or the secret,
/// so neither can end up in a log.
public struct WriteProtection: Sendable, CustomStringConvertible {
    /// How far `X-Timestamp` may be from the server's clock, either way.
    public static let signatureWindow: Int64 = 300

    /// The SHA-256 digests of the keys.
    let keyDigests: [[UInt8]]
    /// The signing secret's bytes.
    let secret: [UInt8]?

    /// No keys and no secret: anyone can write.
    public static var open: WriteProtection { WriteProtection() }

    /// - Parameters:
    ///   - keys: accepted values of `X-API-Key`; several allow rotation. Empty disables the key check.
    ///   - secret: the HMAC-SHA256 signing secret; nil disables signing.
    public init(keys: [String] = [], secret: String? = nil) {
        keyDigests = keys.map { Array(SHA256.hash(data: Data($0.utf8))) }
        self.secret = secret.map { Array($0.utf8) }
    }

    /// Whether writes are open to anyone.
    public var isOpen: Bool { keyDigests.isEmpty && secret == nil }

    /// What writes need, for the log at start; never the keys or the secret.
    public var description: String {
        if isOpen { return "open: no API key configured, anyone can upload, change and delete media" }
        let keys = keyDigests.isEmpty ? "no API key" : "X-API-Key (\(keyDigests.count) key\(keyDigests.count == 1 ? "" : "s"))"
        return secret == nil ? "writes need \(keys)" : "writes need \(keys) and an HMAC-SHA256 X-Signature"
    }

    /// The keys in a key file: one a line, surrounding whitespace ignored, blank lines and `#` comments skipped.
    /// A file without a key is an error, not open mode.
    public static func keys(inFile path: String) throws -> [String] {
        let keys = try lines(ofFile: path)
        guard !keys.isEmpty else { throw WriteProtectionFileError(path: path, reason: "it holds no key") }
        return keys
    }

    /// The signing secret in a secret file: its first line that is not blank or a `#` comment.
    public static func secret(inFile path: String) throws -> String {
        guard let secret = try lines(ofFile: path).first else { throw WriteProtectionFileError(path: path, reason: "it holds no secret") }
        return secret
    }

    private static func lines(ofFile path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WriteProtectionFileError(path: path, reason: "it cannot be read")
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Whether `presented` is one of the keys; every key is compared, each in constant time.
    func accepts(key presented: String) -> Bool {
        let digest = SHA256.hash(data: Data(presented.utf8))
        return keyDigests.reduce(false) { found, key in (digest == key) || found }
    }
}

/// A key or secret file could not be used. The message names the file, never its content.
public struct WriteProtectionFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    public var description: String { "Cannot use \(path) for write protection: \(reason)" }
}
