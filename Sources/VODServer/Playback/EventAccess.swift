import Foundation
import HTTPTypes
import VODCatalog

/// Who sees which status events (`GET /api/events`, `GET /api/media/:id/events`, `/api/ws`): a private title's
/// events go only to requests with an API key and, on that title's own feed, to requests with its playback token.
struct EventAccess: Sendable {
    let tokens: PlaybackTokens
    let protection: WriteProtection

    /// What a request with `fields` and `token` sees of the feed of title `mediaID` (nil: of every title).
    func audience(_ fields: HTTPFields, token: String?, mediaID: Int64?) async -> EventAudience {
        guard let mediaID else { return EventAudience(seesPrivate: protection.admitsPrivateReads(fields)) }
        let grant = try? await PlaybackGrant.check(
            fields, token: token, id: mediaID, visibility: .private, tokens: tokens, protection: protection
        )
        return EventAudience(seesPrivate: grant != nil)
    }
}

/// Which events one reader of a feed is sent.
struct EventAudience: Sendable {
    /// Whether it sees the events of private titles too.
    let seesPrivate: Bool

    /// Whether `event` is sent to it: that of a public title (as the title was right after it), or any event
    /// when it sees private ones.
    func sees(_ event: MediaEvent) -> Bool {
        seesPrivate || !event.isOfPrivateTitle
    }
}

extension MediaEvent {
    /// The visibility alone of the item an event records.
    private struct Snapshot: Decodable {
        var visibility: MediaVisibility
    }

    /// Whether the item was private right after the event; an item that cannot be read counts as private.
    var isOfPrivateTitle: Bool {
        (try? JSONDecoder().decode(Snapshot.self, from: Data(itemJSON.utf8)))?.visibility != .public
    }
}
