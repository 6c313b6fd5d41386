import Foundation
import Testing
@testable import VODServer
import VODTestSupport

/// The token codec: what it signs, and every token it refuses.
@Suite struct PlaybackTokenTests {
    static let key = "playback-key-0123456789abcdef0123456789"
    static let tokens = PlaybackTokens(key: key)
    static let inAnHour = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded(.down))

    /// The reason `token` is refused for title `id`, or nil when it is accepted.
    static func refusal(_ token: String?, id: Int64, tokens: PlaybackTokens = tokens) async -> PlaybackTokenError? {
        do {
            _ = try await tokens.verify(token, mediaID: id)
            return nil
        } catch {
            return error
        }
    }

    /// The JSON of part `index` (0: header, 1: claims) of a JWT.
    static func part(_ index: Int, of token: String) throws -> [String: Any] {
        var base64 = String(token.split(separator: ".")[index]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let data = try #require(Data(base64Encoded: base64))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func signsTheTitleTheExpiryAndTheOriginsWithHS256() async throws {
        let token = try await Self.tokens.issue(PlaybackClaims(mediaID: 42, expires: Self.inAnHour, origins: ["https://app.example.com"]))
        #expect(try Self.part(0, of: token)["alg"] as? String == "HS256")
        let claims = try Self.part(1, of: token)
        #expect(claims["sub"] as? String == "42")
        #expect((claims["exp"] as? NSNumber)?.doubleValue == Self.inAnHour.timeIntervalSince1970)
        #expect(claims["origins"] as? [String] == ["https://app.example.com"])
        let verified = try await Self.tokens.verify(token, mediaID: 42)
        #expect(verified == PlaybackClaims(mediaID: 42, expires: Self.inAnHour, origins: ["https://app.example.com"]))
        #expect(try await PlaybackTokens(key: Self.key).verify(token, mediaID: 42).mediaID == 42, "another instance with the same key")
    }

    @Test func refusesMissingExpiredOtherTitleTamperedAndForeignTokens() async throws {
        let token = try await Self.tokens.issue(PlaybackClaims(mediaID: 7, expires: Self.inAnHour, origins: nil))
        #expect(await Self.refusal(token, id: 7) == nil)
        #expect(await Self.refusal(nil, id: 7) == .missing)
        #expect(await Self.refusal("", id: 7) == .missing)
        #expect(await Self.refusal(token, id: 8) == .otherTitle)
        let expired = try await Self.tokens.issue(PlaybackClaims(mediaID: 7, expires: Date(timeIntervalSinceNow: -5), origins: nil))
        #expect(await Self.refusal(expired, id: 7) == .expired)

        let parts = token.split(separator: ".").map(String.init)
        let otherClaims = try await Self.tokens.issue(PlaybackClaims(mediaID: 8, expires: Self.inAnHour, origins: nil))
            .split(separator: ".").map(String.init)
        let signature = parts[2]
        // The first character, all of whose six bits are the signature's: the last one's lowest bits are padding,
        // so changing it from A to B can leave the signature's bytes as they were.
        let flipped = (signature.first == "A" ? "B" : "A") + String(signature.dropFirst())
        for tampered in [
            "\(parts[0]).\(parts[1]).\(flipped)", "\(parts[0]).\(otherClaims[1]).\(parts[2])", "\(parts[0]).\(parts[1])",
            "not a token", token + "x",
        ] {
            #expect(await Self.refusal(tampered, id: 7) == .invalid, "\(tampered)")
        }
        let unsigned = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.\(parts[1])."
        #expect(await Self.refusal(unsigned, id: 7) == .invalid, "alg none is not a signature")
        let foreign = try await PlaybackTokens(key: String(Self.key.reversed())).issue(PlaybackClaims(mediaID: 7, expires: Self.inAnHour, origins: nil))
        #expect(await Self.refusal(foreign, id: 7) == .invalid, "signed with another key")
        #expect(await Self.refusal(token, id: 7, tokens: PlaybackTokens(key: nil)) == .invalid, "no key checks nothing")
    }

    @Test func withoutAKeyNoTokenIsIssued() async throws {
        #expect(!PlaybackTokens(key: nil).canIssue)
        await #expect(throws: PlaybackTokenError.noKey) {
            try await PlaybackTokens(key: nil).issue(PlaybackClaims(mediaID: 1, expires: Self.inAnHour, origins: nil))
        }
        #expect(PlaybackTokenError.noKey.apiError.status == .serviceUnavailable)
        #expect([PlaybackTokenError.missing, .expired, .otherTitle, .invalid, .origin].allSatisfy { $0.apiError.status == .forbidden })
    }

    @Test func keyFilesHoldOneLongKey() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("playback.key").path
        try Data("# playback key\n\n  \(Self.key)  \n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try PlaybackTokens.key(inFile: path) == Self.key)
        try Data("short-key\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PlaybackKeyFileError.self, "shorter than 32 bytes") { try PlaybackTokens.key(inFile: path) }
        try Data("# nothing\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PlaybackKeyFileError.self) { try PlaybackTokens.key(inFile: path) }
        #expect(throws: PlaybackKeyFileError.self) { try PlaybackTokens.key(inFile: "\(directory.url.path)/missing") }
    }
}
