import Foundation
import Hummingbird
import VODModel

/// The optional JSON body of `POST /api/media/:id/playback-token`, checked, and the keys of its answer.
struct PlaybackTokenRequest: Decodable {
    /// The token's lifetime in seconds.
    var lifetime = PlaybackTokens.defaultLifetime
    /// The origins whose pages may play with it, normalized; nil for any.
    var origins: [String]?

    /// The keys of the answer.
    enum Key: String, CodingKey, JSONKey {
        case token
        case expiresAt = "expires_at"
        case streamURL = "stream_url"
    }

    private enum CodingKeys: String, CodingKey {
        case expiresIn = "expires_in"
        case origins
    }

    init() {}

    /// A key may be left out; one that is present must hold a value of its type, not `null`.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.expiresIn) { lifetime = try container.decode(Int.self, forKey: .expiresIn) }
        if container.contains(.origins) { origins = try container.decode([String].self, forKey: .origins) }
    }

    /// The body of `request`, none meaning the defaults; 400 when it is not such an object or out of range.
    static func read(_ request: Request, context: VODRequestContext) async throws -> PlaybackTokenRequest {
        var request = request
        let body = try await request.collectBody(upTo: MediaController.maximumSignedBodySize)
        var options = PlaybackTokenRequest()
        if body.readableBytes > 0 {
            do {
                options = try JSONDecoder().decode(PlaybackTokenRequest.self, from: body)
            } catch {
                throw APIError.badRequest("Send no body, or a JSON object with \"expires_in\" (seconds) and/or \"origins\" (an array of origins)")
            }
        }
        let range = 1...PlaybackTokens.maximumLifetime
        guard range.contains(options.lifetime) else {
            throw APIError.badRequest("'expires_in' must be a whole number of seconds from \(range.lowerBound) to \(range.upperBound)")
        }
        if let origins = options.origins {
            let normalized = origins.compactMap(CrossOriginWrites.normalized)
            guard normalized.count == origins.count, !origins.isEmpty else {
                throw APIError.badRequest("'origins' must list http or https origins such as https://app.example.com")
            }
            options.origins = normalized
        }
        return options
    }
}
