import Foundation
import HTTPTypes
import Hummingbird
import VODCatalog
import VODModel

extension MediaController {
    /// `POST /api/media/:id/playback-token` (write-protected), with an optional JSON body
    /// `{"expires_in": seconds, "origins": ["https://app.example.com"]}`: a token for the title, valid for
    /// `expires_in` seconds (`PlaybackTokens.defaultLifetime` by default, at most `maximumLifetime`) and, with
    /// `origins`, only from pages of those origins. Answers `{"token", "expires_at", "stream_url"}`, the stream
    /// URL carrying the token. A public title gets one too: it plays with or without it.
    @Sendable func playbackToken(_ request: Request, context: VODRequestContext) async throws -> Response {
        let item = try await item(context)
        let options = try await PlaybackTokenRequest.read(request, context: context)
        // JWT times are whole seconds.
        let expires = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + Double(options.lifetime)).rounded(.down))
        let token: String
        do {
            token = try await playback.issue(PlaybackClaims(mediaID: item.id, expires: expires, origins: options.origins))
        } catch let error as PlaybackTokenError {
            throw error.apiError
        }
        var object = OrderedJSONObject()
        object.add(PlaybackTokenRequest.Key.token, token)
        object.add(PlaybackTokenRequest.Key.expiresAt, WebhooksController.isoTime(expires.timeIntervalSince1970))
        object.add(PlaybackTokenRequest.Key.streamURL, "\(streamURL(of: item.id, request: request))?token=\(token)")
        return Response(status: .created, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: object.json)))
    }

    /// What `request` may do with title `id` of `visibility` (`PlaybackGrant.check`): nil for a public title.
    func grant(_ request: Request, id: Int64, visibility: MediaVisibility) async throws -> PlaybackGrant? {
        try await PlaybackGrant.check(
            request.headers, token: request.uri.queryParameters["token"].map(String.init), id: id, visibility: visibility,
            tokens: playback, protection: writeProtection
        )
    }

    /// The grant of `request` for the title of the `:id` parameter, whose visibility the stream files know. A
    /// token sent for a public title served encrypted is checked, and passed on, as a private title's: its key
    /// needs it.
    func streamGrant(_ request: Request, context: VODRequestContext) async throws -> PlaybackGrant? {
        let id = try Self.id(context)
        let visibility = try await streamFiles.visibility(of: id)
        if visibility == .public, request.uri.queryParameters["token"] != nil, try await streamFiles.encryptionKey(of: id) != nil {
            return try await grant(request, id: id, visibility: .private)
        }
        return try await grant(request, id: id, visibility: visibility)
    }

    /// The response for `file` of a title read with `grant`: a playlist or storyboard with the grant's token on
    /// each URI, and, for a private title, kept out of shared caches.
    func playbackResponse(
        _ file: StreamFile, grant: PlaybackGrant?, request: Request, context: VODRequestContext
    ) async throws -> Response {
        guard let grant else { return try await file.response(to: request, context: context, segments: streamFiles.segments) }
        var served = file
        if let token = grant.token { served = try await file.carrying(token: token) }
        var response = try await served.response(to: request, context: context, segments: streamFiles.segments)
        response.headers[.cacheControl] = response.headers[.cacheControl]?.replacingOccurrences(of: "public", with: "private")
        return response
    }
}
