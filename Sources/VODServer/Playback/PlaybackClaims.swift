import Foundation
import JWTKit

/// The claims of a playback token: the title it plays (`sub`, the media id in decimal), when it stops working
/// (`exp`) and, optionally, the web origins whose pages may play with it (`origins`).
struct PlaybackClaims: JWTPayload, Equatable {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    /// Origins such as `https://app.example.com`; nil or absent: any page, and players that send none.
    var origins: [String]?

    init(mediaID: Int64, expires: Date, origins: [String]?) {
        sub = SubjectClaim(value: String(mediaID))
        exp = ExpirationClaim(value: expires)
        self.origins = origins
    }

    /// The media id of `sub`, nil when it names none.
    var mediaID: Int64? { Int64(sub.value) }

    /// Refuses an expired token; `PlaybackTokens.verify` checks the title and origins.
    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
