/// Why a request for a private title's files is refused, or why no token could be issued.
enum PlaybackTokenError: Error, Equatable {
    /// No `token` parameter.
    case missing
    /// Signed with the key, but past its `exp`.
    case expired
    /// Signed with the key, for another title.
    case otherTitle
    /// Not a token signed with the key: malformed, tampered with, or of another algorithm.
    case invalid
    /// Signed with the key, but the request comes from a page of an origin the token does not list.
    case origin
    /// No playback key is configured, so no token can be issued.
    case noKey
    /// The playback key is an ES256 public key: tokens are checked here and issued by whoever holds the private key.
    case verifyOnly

    /// The answer: 403 for a refused token, 503 when no key that signs is configured.
    var apiError: APIError {
        switch self {
        case .missing: .http(.forbidden, message: "This title is private: add a playback token (?token=…) from POST /api/media/:id/playback-token")
        case .expired: .http(.forbidden, message: "The playback token has expired")
        case .otherTitle: .http(.forbidden, message: "The playback token is for another title")
        case .invalid: .http(.forbidden, message: "Invalid playback token")
        case .origin: .http(.forbidden, message: "The playback token does not allow this page's origin")
        case .noKey:
            .http(.serviceUnavailable, message: "Playback tokens need a key: start vod serve with --playback-key-file or VOD_PLAYBACK_KEY_FILE")
        case .verifyOnly:
            .http(.serviceUnavailable, message: "This server holds only the public half of its ES256 playback key: tokens are signed by whoever holds the private key")
        }
    }
}
