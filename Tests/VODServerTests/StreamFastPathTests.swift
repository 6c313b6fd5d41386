import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import VODServer
import VODTestSupport

/// `StreamFastPath`: playlists held in memory are answered on the event loop, before Hummingbird, exactly as the
/// route answers them, counted in the same metrics, in the order of the requests, and with the connection's
/// keep-alive rules.
@Suite(.timeLimit(.minutes(10))) struct StreamFastPathTests {
    @Test func itAnswersAsTheRouteDoesButForTheDate() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            for path in ["stream", "stream/720p/index.m3u8", "stream/720p/iframes.m3u8"] {
                for encoding in [[:], [HTTPField.Name.acceptEncoding: "gzip"]] as [HTTPFields] {
                    let uri = "/api/media/\(item.id)/\(path)"
                    _ = try await client.execute(uri: uri, method: .get)
                    let fast = try await client.execute(uri: uri, method: .get, headers: encoding)
                    // A condition that does not hold sends the request the long way, to the same 200.
                    var conditional = encoding
                    conditional[.ifNoneMatch] = "\"another\""
                    let routed = try await client.execute(uri: uri, method: .get, headers: conditional)
                    #expect(fast.status == .ok && routed.status == .ok)
                    #expect(Self.fields(fast.headers) == Self.fields(routed.headers), "\(path) \(encoding)")
                    #expect(fast.body == routed.body, "\(path) \(encoding)")
                    #expect(fast.headers[.date] != nil && fast.headers[.server] == "vod")
                }
            }
        }
    }

    @Test func itIsCountedInTheRequestMetrics() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            let playlist = "/api/media/\(item.id)/stream/720p/index.m3u8"
            for _ in 0..<5 { #expect(try await client.execute(uri: playlist, method: .get).status == .ok) }
            #expect(try await client.execute(uri: playlist, method: .head).status == .ok)
            #expect(try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get).status == .ok)
            // The router takes `stream/` for the master's route, routed or answered at once.
            for _ in 0..<2 { #expect(try await client.execute(uri: "/api/media/\(item.id)/stream/", method: .get).status == .ok) }
            let metrics = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream/**",method="GET",status="200"}"#] == 5)
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream/**",method="HEAD",status="200"}"#] == 1)
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream",method="GET",status="200"}"#] == 3)
        }
    }

    @Test(.tags(.processes), .needsExternalTools) func pipelinedRequestsAreAnsweredInOrder() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            let playlist = "/api/media/\(item.id)/stream/720p/index.m3u8"
            _ = try await client.execute(uri: playlist, method: .get)
            // The first goes to Hummingbird, the second could be answered at once: it waits its turn.
            let requests = RawHTTP.head("GET", "/api/media/\(item.id)") + RawHTTP.head("GET", playlist, ["Connection: close"])
            let outcome = try await RawHTTP(port: try #require(client.port)).send(requests, limit: 5)
            #expect(outcome.status == 200 && outcome.closed)
            let json = try #require(outcome.body.range(of: "\"id\":\(item.id)"))
            let second = try #require(outcome.body.range(of: "#EXTM3U"))
            #expect(json.lowerBound < second.lowerBound, "the JSON answer comes first: \(outcome.body)")
        }
    }

    @Test(.tags(.processes, .timeouts), .needsExternalTools) func connectionCloseIsHonoured() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            let playlist = "/api/media/\(item.id)/stream/720p/index.m3u8"
            _ = try await client.execute(uri: playlist, method: .get)
            let outcome = try await RawHTTP(port: try #require(client.port))
                .send(RawHTTP.head("GET", playlist, ["Connection: close"]), limit: 5)
            #expect(outcome.status == 200 && outcome.body.hasPrefix("#EXTM3U") && outcome.closed)
            #expect(outcome.elapsed < 2, "closed after the answer, not at the time limit")
        }
    }

    @Test func theHandlerAnswersACachedPlaylistItselfButNeverAheadOfARequestHandedOn() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let files = StreamFiles(catalog: test.library.catalog, segmentCacheSize: 0)
        _ = try await files.file(id: item.id, components: ["720p", "index.m3u8"])
        let channel = EmbeddedChannel(handler: StreamFastPath(files: files, metrics: ServiceMetrics(), serverName: "vod"))
        let playlist = HTTPRequest(method: .get, scheme: nil, authority: "127.0.0.1", path: "/api/media/\(item.id)/stream/720p/index.m3u8")
        let json = HTTPRequest(method: .get, scheme: nil, authority: "127.0.0.1", path: "/api/media/\(item.id)")

        // Answered here: nothing reaches Hummingbird, and the answer is the playlist.
        try channel.writeInbound(HTTPRequestPart.head(playlist))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        guard case .head(let head) = try #require(try channel.readOutbound(as: HTTPResponsePart.self)) else {
            Issue.record("no response head")
            return
        }
        #expect(head.status == .ok && head.headerFields[.contentType] == "application/vnd.apple.mpegurl")
        guard case .body(let body) = try #require(try channel.readOutbound(as: HTTPResponsePart.self)) else {
            Issue.record("no response body")
            return
        }
        #expect(String(buffer: body).hasPrefix("#EXTM3U"))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == .end(nil))

        // A request it cannot answer goes on; the playlist behind it goes on too, until that answer has ended.
        try channel.writeInbound(HTTPRequestPart.head(json))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeInbound(HTTPRequestPart.head(playlist))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .head(json))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .head(playlist))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == .end(nil))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        for _ in 0..<2 {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }
        while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}

        // Both answers have ended: the next playlist is answered here again.
        try channel.writeInbound(HTTPRequestPart.head(playlist))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) != nil)
        _ = try channel.finish()
    }

    @Test func onlyPlainStreamPathsAreTakenAtOnce() {
        #expect(StreamFastPath.streamTarget("/api/media/12/stream")! == (12, nil, true))
        #expect(StreamFastPath.streamTarget("/api/media/12/stream/")! == (12, "master.m3u8", true))
        #expect(StreamFastPath.streamTarget("/api/media/12/stream/720p/index.m3u8")! == (12, "720p/index.m3u8", false))
        for path in ["/api/media/12/stream//", "/api/media/12/stream/720p//index.m3u8", "/api/media/12/stream/../x.m3u8",
                     "/api/media/12/stream/720p/index.m3u8?x=1", "/api/media/12/stream/720p/%69ndex.m3u8", "/api/media/0/stream",
                     "/api/media/x/stream", "/api/media/12/streams", "/api/media/12", "/api/media/12/stream/a/b/c/d",
                     "/api/media/1234567890123456789/stream", "/other/12/stream"] {
            #expect(StreamFastPath.streamTarget(path) == nil, "\(path)")
        }
    }

    /// The response's fields but `Date`, in order.
    private static func fields(_ headers: HTTPFields) -> [String] {
        headers.filter { $0.name != .date }.map { "\($0.name): \($0.value)" }
    }
}
