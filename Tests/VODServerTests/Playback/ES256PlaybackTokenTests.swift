import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// Playback tokens signed with ES256: a P-256 private key in PEM signs and checks them; its public key alone
/// checks them and issues none, so an application's backend can sign tokens with a key vod never holds.
@Suite struct ES256PlaybackTokenTests {
    static let privateKey = P256.Signing.PrivateKey()
    static let claims = PlaybackClaims(mediaID: 9, expires: PlaybackTokenTests.inAnHour, origins: nil)

    @Test func aPrivateKeySignsAndItsPublicKeyAloneChecks() async throws {
        let signer = PlaybackTokens(key: Self.privateKey.pemRepresentation)
        let checker = PlaybackTokens(key: Self.privateKey.publicKey.pemRepresentation)
        #expect(signer.canIssue && !checker.canIssue)
        let token = try await signer.issue(Self.claims)
        #expect(try PlaybackTokenTests.part(0, of: token)["alg"] as? String == "ES256")
        #expect(try await checker.verify(token, mediaID: 9) == Self.claims, "the public key checks what the private key signed")
        #expect(await PlaybackTokenTests.refusal(token, id: 10, tokens: checker) == .otherTitle)
        await #expect(throws: PlaybackTokenError.verifyOnly) { try await checker.issue(Self.claims) }
        #expect(PlaybackTokenError.verifyOnly.apiError.status == .serviceUnavailable)

        let otherKey = PlaybackTokens(key: P256.Signing.PrivateKey().publicKey.pemRepresentation)
        #expect(await PlaybackTokenTests.refusal(token, id: 9, tokens: otherKey) == .invalid, "another key pair's public key")
        let hs256 = try await PlaybackTokenTests.tokens.issue(Self.claims)
        #expect(await PlaybackTokenTests.refusal(hs256, id: 9, tokens: checker) == .invalid, "an HS256 token under an ES256 key")
    }

    @Test func keyFilesHoldAP256KeyInPEM() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("playback.pem").path
        for pem in [Self.privateKey.pemRepresentation, Self.privateKey.publicKey.pemRepresentation] {
            try Data("\n\(pem)\n".utf8).write(to: URL(fileURLWithPath: path))
            #expect(try PlaybackTokens.key(inFile: path) == pem)
        }
        let otherCurve = P384.Signing.PrivateKey().pemRepresentation
        try Data(otherCurve.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PlaybackKeyFileError.self, "a P-384 key is not ES256") { try PlaybackTokens.key(inFile: path) }
        try Data("-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PlaybackKeyFileError.self) { try PlaybackTokens.key(inFile: path) }
    }

    @Test func aServerWithThePublicKeyPlaysTokensSignedElsewhereAndIssuesNone() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        _ = try await test.catalog.update(id: item.id, title: nil, description: nil, visibility: .private)
        let app = test.app {
            $0.writeProtection = WriteProtection(keys: [PrivateTitleTests.apiKey])
            $0.playbackKey = Self.privateKey.publicKey.pemRepresentation
        }
        let token = try await PlaybackTokens(key: Self.privateKey.pemRepresentation)
            .issue(PlaybackClaims(mediaID: item.id, expires: PlaybackTokenTests.inAnHour, origins: nil))
        try await app.test(.live) { client in
            let master = try await client.execute(uri: "/api/media/\(item.id)/stream?token=\(token)", method: .get)
            #expect(master.status == .ok && master.body.text.contains("stream/720p/index.m3u8?token=\(token)"))
            #expect(try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get).status == .forbidden)
            let issued = try await client.execute(uri: "/api/media/\(item.id)/playback-token", method: .post, headers: PrivateTitleTests.keyed)
            #expect(issued.status == .serviceUnavailable && issued.body.text.contains("public half"), "\(issued.body.text)")
        }
    }
}
