import Foundation
import JWTKit

/// Issues and checks playback tokens: JWTs signed with HS256 under the key of `--playback-key-file`, or with ES256
/// when the file holds a P-256 key in PEM. With an ES256 public key alone, tokens are checked but not issued: they
/// are signed elsewhere (an application's backend) by whoever holds the private key, which never reaches vod.
///
/// Without a key no token is issued (`PlaybackTokenError.noKey`): a key made up per process would stop every
/// token at a restart and differ between API nodes, so a private title plays only once a key is configured.
public struct PlaybackTokens: Sendable {
    /// A key shorter than this many bytes is refused: HS256 wants at least the 256 bits of its hash.
    public static let minimumKeySize = 32
    /// The lifetime of a token when the request names none: an hour.
    public static let defaultLifetime = 3600
    /// The longest lifetime a request may ask for: a day.
    public static let maximumLifetime = 86_400

    /// The key collection holding the key, once added to it; nil when no key is configured.
    private let keys: Task<JWTKeyCollection, Never>?
    /// Whether the key signs (an HS256 secret or an ES256 private key), not only verifies.
    private let signs: Bool

    /// Tokens signed with `key` (an HS256 secret, or a P-256 key in PEM as `key(inFile:)` reads it), or none
    /// issued when it is nil or not a key.
    public init(key: String?) {
        guard let key, let signer = try? Self.signer(key) else {
            (keys, signs) = (nil, false)
            return
        }
        signs = signer.signs
        keys = Task { await signer.add(JWTKeyCollection()) }
    }

    /// Whether tokens can be issued: a signing key is configured.
    public var canIssue: Bool { keys != nil && signs }

    /// What `key` adds to a key collection, and whether it signs.
    private static func signer(_ key: String) throws -> (add: @Sendable (JWTKeyCollection) async -> JWTKeyCollection, signs: Bool) {
        guard key.contains("-----BEGIN") else {
            let secret = HMACKey(from: key)
            return ({ await $0.add(hmac: secret, digestAlgorithm: .sha256) }, true)
        }
        if key.contains("PUBLIC KEY") {
            let publicKey = try ES256PublicKey(pem: key)
            return ({ await $0.add(ecdsa: publicKey) }, false)
        }
        let privateKey = try ES256PrivateKey(pem: key)
        return ({ await $0.add(ecdsa: privateKey) }, true)
    }

    /// The key in `path`: a P-256 private or public key in PEM (ES256), or else its first line that is not blank or
    /// a `#` comment, at least `minimumKeySize` bytes (HS256).
    public static func key(inFile path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlaybackKeyFileError(path: path, reason: "it cannot be read")
        }
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("-----BEGIN") {
            let pem = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (try? signer(pem)) != nil else {
                throw PlaybackKeyFileError(path: path, reason: "it holds a PEM block that is not a P-256 (ES256) private or public key")
            }
            return pem
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let key = lines.first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else {
            throw PlaybackKeyFileError(path: path, reason: "it holds no key")
        }
        guard key.utf8.count >= minimumKeySize else {
            throw PlaybackKeyFileError(path: path, reason: "its key is shorter than \(minimumKeySize) bytes")
        }
        return key
    }

    /// A token for `claims`.
    func issue(_ claims: PlaybackClaims) async throws -> String {
        guard let keys else { throw PlaybackTokenError.noKey }
        guard signs else { throw PlaybackTokenError.verifyOnly }
        return try await keys.value.sign(claims)
    }

    /// The claims of `token` when it is signed with the key, unexpired and for title `mediaID`; otherwise the
    /// reason it is refused.
    func verify(_ token: String?, mediaID: Int64) async throws(PlaybackTokenError) -> PlaybackClaims {
        guard let token, !token.isEmpty else { throw .missing }
        guard let keys else { throw .invalid }
        let claims: PlaybackClaims
        do {
            claims = try await keys.value.verify(token, as: PlaybackClaims.self)
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            throw .expired
        } catch {
            throw .invalid
        }
        guard claims.mediaID == mediaID else { throw .otherTitle }
        return claims
    }
}

/// The playback key file could not be used. The message names the file, never its content.
public struct PlaybackKeyFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    public var description: String { "Cannot use \(path) as the playback key: \(reason)" }
}
