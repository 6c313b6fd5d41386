import HTTPTypes
import VODModel

/// Why a request may read a private title's files: the playback token it carries, which the playlists it gets
/// pass on to every URI, or an API key (`token` nil).
struct PlaybackGrant: Sendable, Equatable {
    let token: String?

    /// Checks a request with `fields` and `token` for title `id` of `visibility`: nil for a public title, which
    /// needs nothing; a grant for a request with an API key or a valid token; otherwise the refusal, a 403.
    static func check(
        _ fields: HTTPFields, token: String?, id: Int64, visibility: MediaVisibility,
        tokens: PlaybackTokens, protection: WriteProtection
    ) async throws -> PlaybackGrant? {
        guard visibility == .private else { return nil }
        if protection.admitsPrivateReads(fields) { return PlaybackGrant(token: nil) }
        do throws(PlaybackTokenError) {
            let claims = try await tokens.verify(token, mediaID: id)
            if let origins = claims.origins, !origins.contains(where: { $0 == origin(of: fields) }) {
                throw PlaybackTokenError.origin
            }
            return PlaybackGrant(token: token)
        } catch {
            throw error.apiError
        }
    }

    /// The origin of the page a request comes from: its `Origin`, else its `Referer`'s, normalized.
    static func origin(of fields: HTTPFields) -> String? {
        (fields[.origin] ?? fields[.referer]).flatMap(CrossOriginWrites.normalized)
    }
}
