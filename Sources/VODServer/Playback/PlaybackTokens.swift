import Foundation
import JWTKit

/// Issues and checks playback tokens: JWTs signed with HS256 under the key of `--playback-key-file`.
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

    /// The key collection holding the HS256 key, once added to it; nil when no key is configured.
    private let keys: Task<JWTKeyCollection, Never>?

    /// Tokens signed with `key`, or none issued when it is nil.
    public init(key: String?) {
        keys = key.map { key in Task { await JWTKeyCollection().add(hmac: HMACKey(from: key), digestAlgorithm: .sha256) } }
    }

    /// Whether a key is configured.
    public var canIssue: Bool { keys != nil }

    /// The key in `path`: its first line that is not blank or a `#` comment, at least `minimumKeySize` bytes.
    public static func key(inFile path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlaybackKeyFileError(path: path, reason: "it cannot be read")
        }
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
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
