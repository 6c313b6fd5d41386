import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
@testable import VODServer
import VODTestSupport

/// A private title over real HTTP on loopback, with hand-written renditions: every path refused without a valid
/// token, playlists that pass the token on, a listing only with a key, and visibility changes seen at once.
@Suite(.timeLimit(.minutes(5))) struct PrivateTitleTests {
    static let apiKey = "private-titles-api-key"
    static let keyed: HTTPFields = [.apiKey: apiKey]

    /// A server with an API key and a playback key.
    static func app(_ test: TestLibrary) -> some ApplicationProtocol {
        test.app {
            $0.writeProtection = WriteProtection(keys: [apiKey])
            $0.playbackKey = PlaybackTokenTests.key
        }
    }

    /// A token for title `id`, expiring at `expires`.
    static func token(_ id: Int64, expires: Date = PlaybackTokenTests.inAnHour) async throws -> String {
        try await PlaybackTokenTests.tokens.issue(PlaybackClaims(mediaID: id, expires: expires, origins: nil))
    }

    /// Every kind of path of title `id` that needs a token.
    static func paths(_ id: Int64) -> [String] {
        ["/stream", "/stream/720p/index.m3u8", "/stream/720p/iframes.m3u8", "/stream/720p/segment_000.ts", "/poster.jpg",
         "/stills/storyboard.vtt", "/stills/storyboard_0.jpg", "/thumbnail.jpg?time=1", "/captions", "/events"]
            .map { "/api/media/\(id)\($0)" }
    }

    /// `uri` with the `token` parameter added.
    static func with(_ token: String, _ uri: String) -> String {
        uri + (uri.contains("?") ? "&" : "?") + "token=\(token)"
    }

    @Test func everyPathRefusesMissingExpiredOtherAndTamperedTokens() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let other = try await test.addReady(title: "other")
        _ = try await test.catalog.update(id: item.id, title: nil, description: nil, visibility: .private)
        let valid = try await Self.token(item.id)
        let expired = try await Self.token(item.id, expires: Date(timeIntervalSinceNow: -1))
        let othersToken = try await Self.token(other.id)
        let tampered = String(valid.dropLast(2)) + (valid.hasSuffix("AA") ? "BB" : "AA")
        let refusals: [(String?, String)] = [
            (nil, "private"), (expired, "expired"), (othersToken, "another title"), (tampered, "Invalid playback token"),
        ]
        try await Self.app(test).test(.live) { client in
            for path in Self.paths(item.id) {
                for (token, reason) in refusals {
                    let response = try await client.execute(uri: token.map { Self.with($0, path) } ?? path, method: .get)
                    #expect(response.status == .forbidden, "\(path) with \(reason)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                    #expect(body?.keys.sorted() == ["error"] && body?["error"]?.contains(reason) == true, "\(path): \(response.body.text)")
                }
            }
            #expect(try await client.execute(uri: "/api/media/\(other.id)/stream/720p/segment_000.ts", method: .get).status == .ok,
                    "a public title needs nothing")
        }
    }

    @Test func aTokenPlaysAndEveryPlaylistURICarriesIt() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        _ = try await test.catalog.update(id: item.id, title: nil, description: nil, visibility: .private)
        let token = try await Self.token(item.id)
        try await Self.app(test).test(.live) { client in
            let master = try await client.execute(uri: "/api/media/\(item.id)/stream?token=\(token)", method: .get)
            #expect(master.status == .ok)
            #expect(master.headers[.cacheControl]?.hasPrefix("private") == true)
            #expect(master.body.text.contains("stream/720p/index.m3u8?token=\(token)\n"))
            #expect(master.body.text.contains("URI=\"stream/720p/iframes.m3u8?token=\(token)\""))
            let base = try #require(URL(string: "http://vod/api/media/\(item.id)/stream"))
            var uris: [String] = []
            for line in master.body.text.split(separator: "\n") where !line.hasPrefix("#") { uris.append(String(line)) }
            uris.append("stream/720p/iframes.m3u8?token=\(token)")
            for uri in uris {
                let url = try #require(URL(string: uri, relativeTo: base))
                let playlist = try await client.execute(uri: "\(url.path)?\(url.query ?? "")", method: .get)
                #expect(playlist.status == .ok, "\(url)")
                let segments = playlist.body.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
                #expect(!segments.isEmpty && segments.allSatisfy { $0.hasSuffix("?token=\(token)") }, "\(playlist.body.text)")
                let segment = try #require(URL(string: String(segments[0]), relativeTo: url))
                let bytes = try await client.execute(uri: "\(segment.path)?\(segment.query ?? "")", method: .get)
                #expect(bytes.status == .ok && bytes.headers[.cacheControl] == "private, max-age=31536000, immutable")
                #expect(Array(buffer: bytes.body) == TestLibrary.segmentBytes)
            }
            let keyed = try await client.execute(uri: "/api/media/\(item.id)/stream/720p/segment_001.ts", method: .get, headers: Self.keyed)
            #expect(keyed.status == .ok, "an API key reads a private title's files too")
        }
    }

    @Test func theListAndTheItemShowAPrivateTitleOnlyWithAKey() async throws {
        let test = try TestLibrary()
        let open = try await test.addReady(title: "open")
        let item = try await test.addReady(title: "hidden")
        _ = try await test.catalog.update(id: item.id, title: nil, description: nil, visibility: .private)
        try await Self.app(test).test(.live) { client in
            func ids(_ headers: HTTPFields) async throws -> [Int] {
                let list = try await client.execute(uri: "/api/media", method: .get, headers: headers)
                return (try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
            }
            #expect(try await ids([:]) == [Int(open.id)])
            #expect(try await ids([.apiKey: "wrong"]) == [Int(open.id)])
            #expect(try await ids(Self.keyed) == [Int(item.id), Int(open.id)])
            let hidden = try await client.execute(uri: "/api/media/\(item.id)", method: .get)
            #expect(hidden.status == .notFound && hidden.body.text == #"{"error":"Media not found"}"#)
            let token = try await Self.token(item.id)
            #expect(try await client.execute(uri: "/api/media/\(item.id)?token=\(token)", method: .get).status == .notFound,
                    "a playback token plays; it does not list")
            let shown = try await client.execute(uri: "/api/media/\(item.id)", method: .get, headers: Self.keyed)
            #expect(shown.status == .ok && shown.body.text.hasSuffix(#","visibility":"private","segment_format":"ts","dash_url":null}"#))
            let openJSON = try await client.execute(uri: "/api/media/\(open.id)", method: .get)
            #expect(openJSON.body.text.hasSuffix(#","visibility":"public","segment_format":"ts","dash_url":null}"#))
        }
    }

    @Test func visibilityChangesTakeEffectOnTheNextRequest() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await Self.app(test).test(.live) { client in
            let segment = "/api/media/\(item.id)/stream/720p/segment_000.ts"
            let master = "/api/media/\(item.id)/stream"
            for _ in 0..<3 {
                #expect(try await client.execute(uri: segment, method: .get).status == .ok, "cached, then from the fast path")
                #expect(try await client.execute(uri: master, method: .get).status == .ok)
            }
            let patch = #"{"visibility":"private"}"#
            #expect(try await client.execute(uri: "/api/media/\(item.id)", method: .patch, headers: [.contentType: "application/json"],
                                             body: ByteBuffer(string: patch)).status == .unauthorized, "a write")
            let changed = try await client.execute(uri: "/api/media/\(item.id)", method: .patch,
                                                   headers: [.contentType: "application/json", .apiKey: Self.apiKey], body: ByteBuffer(string: patch))
            #expect(changed.status == .ok && changed.body.text.hasSuffix(#""visibility":"private","segment_format":"ts","dash_url":null}"#))
            #expect(try await client.execute(uri: segment, method: .get).status == .forbidden)
            #expect(try await client.execute(uri: master, method: .get).status == .forbidden)
            for body in [#"{"visibility":"hidden"}"#, #"{"visibility":null}"#, #"{"visibility":1}"#] {
                let invalid = try await client.execute(uri: "/api/media/\(item.id)", method: .patch,
                                                       headers: [.contentType: "application/json", .apiKey: Self.apiKey],
                                                       body: ByteBuffer(string: body))
                #expect(invalid.status == .badRequest, "\(body)")
            }
            #expect(try await client.execute(uri: segment, method: .get).status == .forbidden, "still private")
            _ = try await client.execute(uri: "/api/media/\(item.id)", method: .patch, headers: [.contentType: "application/json", .apiKey: Self.apiKey],
                                         body: ByteBuffer(string: #"{"visibility":"public"}"#))
            #expect(try await client.execute(uri: segment, method: .get).status == .ok)
            #expect(try await client.execute(uri: master, method: .get).body.text == String(TestLibrary.master.replacingOccurrences(of: "720p/", with: "stream/720p/")))
        }
    }

    @Test func tokensAreIssuedToWritersWithinTheirLimits() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await Self.app(test).test(.live) { client in
            let uri = "/api/media/\(item.id)/playback-token"
            #expect(try await client.execute(uri: uri, method: .post).status == .unauthorized)
            let issued = try await client.execute(uri: uri, method: .post, headers: Self.keyed, body: ByteBuffer(string: #"{"expires_in":120}"#))
            #expect(issued.status == .created)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: issued.body)) as? [String: String])
            let token = try #require(json["token"])
            #expect(json["stream_url"]?.hasSuffix("/api/media/\(item.id)/stream?token=\(token)") == true)
            let expiresAt = try #require(json["expires_at"])
            let expires = try #require(ISO8601DateFormatter.catalog.date(from: expiresAt))
            #expect(abs(expires.timeIntervalSinceNow - 120) < 5)
            #expect(try await PlaybackTokenTests.tokens.verify(token, mediaID: item.id).exp.value == expires)
            for body in [#"{"expires_in":0}"#, #"{"expires_in":86401}"#, #"{"expires_in":"soon"}"#, #"{"expires_in":null}"#,
                         #"{"origins":["nowhere"]}"#, #"{"origins":null}"#, #"{"origins":[]}"#, "[]"] {
                let refused = try await client.execute(uri: uri, method: .post, headers: Self.keyed, body: ByteBuffer(string: body))
                #expect(refused.status == .badRequest, "\(body)")
            }
            #expect(try await client.execute(uri: "/api/media/999/playback-token", method: .post, headers: Self.keyed).status == .notFound)
        }
        try await test.app { $0.writeProtection = WriteProtection(keys: [Self.apiKey]) }.test(.live) { client in
            let refused = try await client.execute(uri: "/api/media/\(item.id)/playback-token", method: .post, headers: Self.keyed)
            #expect(refused.status == .serviceUnavailable && refused.body.text.contains("--playback-key-file"))
        }
    }

    @Test func originBoundTokensPlayOnlyFromTheirOrigins() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        _ = try await test.catalog.update(id: item.id, title: nil, description: nil, visibility: .private)
        let token = try await PlaybackTokenTests.tokens.issue(
            PlaybackClaims(mediaID: item.id, expires: PlaybackTokenTests.inAnHour, origins: ["https://app.example.com"])
        )
        let fromApp: HTTPFields = [.origin: "https://app.example.com"]
        let linkedFromApp: HTTPFields = [.referer: "https://app.example.com/watch/1"]
        let fromElsewhere: HTTPFields = [.origin: "https://evil.example"]
        try await Self.app(test).test(.live) { client in
            let uri = "/api/media/\(item.id)/stream?token=\(token)"
            let statuses = [
                try await client.execute(uri: uri, method: .get, headers: fromApp).status,
                try await client.execute(uri: uri, method: .get, headers: linkedFromApp).status,
                try await client.execute(uri: uri, method: .get, headers: fromElsewhere).status,
                try await client.execute(uri: uri, method: .get).status,
            ]
            #expect(statuses == [.ok, .ok, .forbidden, .forbidden], "listed origin, listed referrer, other origin, no origin at all")
        }
    }

    @Test func uploadsRefuseAVisibilityThatIsNeither() async throws {
        let test = try TestLibrary()
        try await Self.app(test).test(.live) { client in
            let raw = try await client.execute(uri: "/api/media?visibility=hidden", method: .post,
                                               headers: [.apiKey: Self.apiKey, .contentType: "video/mp4"], body: ByteBuffer(string: "bytes"))
            #expect(raw.status == .badRequest && raw.body.text == #"{"error":"'visibility' must be public or private"}"#)
            let tus = try await client.execute(uri: "/api/uploads", method: .post, headers: [
                .apiKey: Self.apiKey, HTTPField.Name("Tus-Resumable")!: "1.0.0", HTTPField.Name("Upload-Length")!: "10",
                HTTPField.Name("Upload-Metadata")!: "filename YS5tcDQ=,visibility aGlkZGVu",
            ])
            #expect(tus.status == .badRequest && tus.body.text.contains("visibility"))
        }
        #expect(try test.storedMedia().filter { !$0.hasPrefix(".") }.isEmpty, "nothing stored")
    }

    @Test func privateEventsReachOnlyKeysAndTheirTitlesTokens() throws {
        var item = MediaItem(id: 5, title: "t", description: nil, status: .ready, hlsPath: nil, duration: nil, progress: 1,
                             error: nil, sourceFileName: "t.mp4", sourcePath: "/t.mp4", sourceSize: 1, probeJSON: nil,
                             variantsJSON: nil, attempts: 1, createdAt: "", updatedAt: "", leaseToken: 1)
        let publicEvent = MediaEvent(id: 1, type: .ready, mediaID: 5, itemJSON: try MediaEvent.encode(item), createdAt: "")
        item.visibility = .private
        let privateEvent = MediaEvent(id: 2, type: .ready, mediaID: 5, itemJSON: try MediaEvent.encode(item), createdAt: "")
        #expect(EventAudience(seesPrivate: false).sees(publicEvent))
        #expect(!EventAudience(seesPrivate: false).sees(privateEvent))
        #expect(EventAudience(seesPrivate: true).sees(privateEvent))
    }
}

extension ISO8601DateFormatter {
    /// The catalog's times, such as `2025-10-21T14:11:29.798Z`.
    static var catalog: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
