import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODModel
@testable import VODServer
import VODService
import VODTestSupport
import _CryptoExtras

/// Issue 27: a title served AES-128-encrypted (`--encrypt aes-128`), over real HTTP on loopback with
/// hand-written renditions: each segment leaves the server encrypted with the title's key and the IV its playlist
/// names, so that the key (which needs a playback token) opens it and a segment's URL alone shows nothing.
@Suite(.timeLimit(.minutes(5))) struct EncryptedTitleTests {
    /// A ready public title with a key of its own, and the key.
    static func encryptedTitle(_ test: TestLibrary) async throws -> (item: MediaItem, key: [UInt8]) {
        let item = try await test.addReady()
        let key = SegmentEncryption.newKey()
        try await test.catalog.setEncryptionKey(key, for: item.id)
        return (item, key)
    }

    /// The IV of each segment of a media playlist, from the `EXT-X-KEY` before it, and the key URI they name.
    static func keys(in playlist: String) throws -> (uri: String, ivs: [String: [UInt8]]) {
        var ivs: [String: [UInt8]] = [:]
        var uris: Set<String> = []
        var pending: [UInt8]?
        for line in playlist.split(separator: "\n") {
            if line.hasPrefix("#EXT-X-KEY:") {
                let attributes = line.dropFirst("#EXT-X-KEY:".count).split(separator: ",")
                #expect(attributes.first == "METHOD=AES-128")
                let uri = try #require(attributes.first { $0.hasPrefix("URI=") }).dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                uris.insert(uri)
                let hex = try #require(attributes.first { $0.hasPrefix("IV=0x") }).dropFirst(5)
                pending = try #require(Hex.bytes(String(hex)))
            } else if !line.hasPrefix("#") {
                ivs[String(line.split(separator: "?")[0])] = try #require(pending, "a key before \(line)")
                pending = nil
            }
        }
        #expect(uris.count == 1)
        return (try #require(uris.first), ivs)
    }

    @Test func segmentsLeaveEncryptedAndTheKeyWithATokenOpensThem() async throws {
        let test = try TestLibrary()
        let (item, key) = try await Self.encryptedTitle(test)
        try await PrivateTitleTests.app(test).test(.live) { client in
            let master = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get)
            #expect(master.status == .ok && master.body.text.contains("stream/720p/index.m3u8\n"))
            #expect(!master.body.text.contains("I-FRAME"), "byte ranges of an encrypted segment cannot be decrypted alone")
            for path in ["stream/", "stream/master.m3u8"] {
                let below = try await client.execute(uri: "/api/media/\(item.id)/\(path)", method: .get)
                #expect(below.status == .ok && below.body.text.contains("\n720p/index.m3u8\n") && !below.body.text.contains("I-FRAME"), "\(path)")
            }
            let variant = try await client.execute(uri: "/api/media/\(item.id)/stream/720p/index.m3u8", method: .get)
            let (keyURI, ivs) = try Self.keys(in: variant.body.text)
            #expect(keyURI == "../../key" && ivs.keys.sorted() == ["segment_000.ts", "segment_001.ts"])
            #expect(ivs["segment_000.ts"] != ivs["segment_001.ts"])
            let plaintexts: [String: [UInt8]] = ["segment_000.ts": TestLibrary.segmentBytes, "segment_001.ts": TestLibrary.segmentBytes.reversed()]
            for (name, plaintext) in plaintexts {
                let uri = "/api/media/\(item.id)/stream/720p/\(name)"
                let first = try await client.execute(uri: uri, method: .get)
                let again = try await client.execute(uri: uri, method: .get)
                let ciphertext = Array(buffer: first.body)
                #expect(first.status == .ok && ciphertext.count == 5008 && ciphertext != plaintext, "PKCS#7 pads 5000 bytes to 5008")
                #expect(Array(buffer: again.body) == ciphertext && again.headers[.eTag] == first.headers[.eTag],
                        "the same ciphertext each time, never the file itself")
                let iv = try AES._CBC.IV(ivBytes: try #require(ivs[name]))
                #expect(Array(try AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: key), iv: iv)) == plaintext)
                let range = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=16-31"])
                #expect(range.status == .partialContent && Array(buffer: range.body) == Array(ciphertext[16..<32]))
            }

            let keyPath = "/api/media/\(item.id)/key"
            let refused = try await client.execute(uri: keyPath, method: .get)
            #expect(refused.status == .forbidden, "the key of a public title needs its token too: \(refused.body.text)")
            let token = try await PrivateTitleTests.token(item.id)
            let fetched = try await client.execute(uri: "\(keyPath)?token=\(token)", method: .get)
            #expect(fetched.status == .ok && Array(buffer: fetched.body) == key)
            #expect(fetched.headers[.contentType] == "application/octet-stream" && fetched.headers[.cacheControl] == "private, no-store")
            let keyed = try await client.execute(uri: keyPath, method: .get, headers: PrivateTitleTests.keyed)
            #expect(Array(buffer: keyed.body) == key, "an API key fetches it too")

            let tokened = try await client.execute(uri: "/api/media/\(item.id)/stream/720p/index.m3u8?token=\(token)", method: .get)
            #expect(try Self.keys(in: tokened.body.text).uri == "../../key?token=\(token)", "the token travels to the key")
        }
    }

    @Test func aTitleInTheClearHasNoKeyAPrivateOneKeepsItsRefusalsAndNoneHasDASH() async throws {
        let test = try TestLibrary()
        let clear = try await test.addReady(title: "clear")
        let (secret, _) = try await Self.encryptedTitle(test)
        _ = try await test.catalog.update(id: secret.id, title: nil, description: nil, visibility: .private)
        try await PrivateTitleTests.app(test).test(.live) { client in
            let clearToken = try await PrivateTitleTests.token(clear.id)
            let none = try await client.execute(uri: "/api/media/\(clear.id)/key?token=\(clearToken)", method: .get)
            #expect(none.status == .notFound && none.body.text.contains("not served encrypted"))
            let segment = try await client.execute(uri: "/api/media/\(clear.id)/stream/720p/segment_000.ts", method: .get)
            #expect(Array(buffer: segment.body) == TestLibrary.segmentBytes, "a title in the clear is served as it is")
            for path in ["/key", "/stream/720p/segment_000.ts", "/stream/720p/index.m3u8"] {
                let anonymous = try await client.execute(uri: "/api/media/\(secret.id)\(path)", method: .get)
                let othersToken = try await client.execute(uri: "/api/media/\(secret.id)\(path)?token=\(clearToken)", method: .get)
                #expect(anonymous.status == .forbidden && othersToken.status == .forbidden, "\(path)")
            }
            let missing = try await client.execute(uri: "/api/media/999/key", method: .get, headers: PrivateTitleTests.keyed)
            #expect(missing.status == .notFound)
            let fragmented = try await test.addReady(title: "fragmented", format: .fmp4)
            try await test.catalog.setEncryptionKey(SegmentEncryption.newKey(), for: fragmented.id)
            let manifest = try await client.execute(uri: "/api/media/\(fragmented.id)/manifest.mpd", method: .get)
            #expect(manifest.status == .notFound && manifest.body.text.contains("AES-128"), "DASH players cannot open HLS AES-128")
            let pending = try await test.addPending(title: "pending")
            let pendingKey = SegmentEncryption.newKey()
            try await test.catalog.setEncryptionKey(pendingKey, for: pending.id)
            let early = try await client.execute(uri: "/api/media/\(pending.id)/key", method: .get, headers: PrivateTitleTests.keyed)
            #expect(early.status == .ok && Array(buffer: early.body) == pendingKey, "a title not yet playable has its key too")
        }
    }
}
