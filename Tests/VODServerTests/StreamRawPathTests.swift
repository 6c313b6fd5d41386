import Foundation
import NIOCore
import Testing
@testable import VODServer
import VODTestSupport

/// `StreamRawPath`: on a kept-alive connection with nothing in progress, a lone plain GET or HEAD of a playlist or
/// segment is answered from the connection's bytes, exactly as `StreamFastPath` answers it but for `Date`; everything else
/// goes through the HTTP/1 codec as it came.
@Suite(.timeLimit(.minutes(5))) struct StreamRawPathTests {
    @Test func aPlainRequestIsReadWhenItIsTheWholeReadAndAsksForNothingMore() throws {
        let plain = try #require(Self.request("GET /api/media/1/stream/720p/index.m3u8 HTTP/1.1\r\nHost: x\r\nUser-Agent: a\r\n\r\n"))
        #expect(!plain.isHead && plain.path == "/api/media/1/stream/720p/index.m3u8" && !plain.acceptsGzip)
        let head = try #require(Self.request("HEAD /api/media/1/stream HTTP/1.1\r\nhost: x\r\nconnection:  Keep-Alive \r\n\r\n"))
        #expect(head.isHead && head.path == "/api/media/1/stream")
        #expect(Self.request("GET /a HTTP/1.1\r\nAccept-Encoding: br, gzip;q=0.5\r\n\r\n")?.acceptsGzip == true)
        #expect(Self.request("GET /a HTTP/1.1\r\nAccept-Encoding: gzip;q=0\r\n\r\n")?.acceptsGzip == false)
        #expect(Self.request("GET /a HTTP/1.1\r\n\r\n") != nil, "no field at all")
    }

    @Test(arguments: [
        "GET /a HTTP/1.1\r\nRange: bytes=0-1\r\n\r\n", "GET /a HTTP/1.1\r\nIf-None-Match: \"x\"\r\n\r\n",
        "GET /a HTTP/1.1\r\nif-modified-since: x\r\n\r\n", "GET /a HTTP/1.1\r\nConnection: close\r\n\r\n",
        "GET /a HTTP/1.1\r\nContent-Length: 0\r\n\r\n", "GET /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /a HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", "GET /a HTTP/1.0\r\n\r\n", "POST /a HTTP/1.1\r\n\r\n",
        "GET /a HTTP/1.1\r\n\r\nGET /a HTTP/1.1\r\n\r\n", "GET /a HTTP/1.1\r\nHost: x\r\n", "GET /a HTTP/1.1\r\nHost\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", "GET /a HTTP/1.1\nHost: x\r\n\r\n", "GET /a HTTP/1.1\r\nHo st: x\r\n\r\n",
        "GET  /a HTTP/1.1\r\n\r\n", "GET a HTTP/1.1\r\n\r\n", "GET /a HTTP/1.1\r\nX: \u{1}\r\n\r\n",
        "GET /a HTTP/1.1\r\nX: " + String(repeating: "y", count: 5000) + "\r\n\r\n",
    ])
    func everythingElseIsLeftToTheDecoder(_ text: String) {
        #expect(Self.request(text) == nil)
    }

    @Test(.tags(.processes), .needsExternalTools) func itAnswersAsTheFastPathDoesButForTheDate() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            let playlist = "/api/media/\(item.id)/stream/720p/index.m3u8"
            let get = Self.write("GET", playlist)
            let gzip = Self.write("GET", playlist, ["Accept-Encoding: gzip"])
            let ranged = Self.write("GET", playlist, ["Accept-Encoding: gzip", "Range: bytes=0-"])
            let master = Self.write("GET", "/api/media/\(item.id)/stream")
            let segment = Self.write("GET", "/api/media/\(item.id)/stream/720p/segment_001.ts")
            // The first two go through the codec: the reader is added during the first, and trusts the decoder from
            // the end of the second. A request with a range goes to the route, and the next one through the codec.
            let answers = try await KeptAliveHTTP(port: try #require(client.port)).exchange([
                get, get, get, gzip, Self.write("HEAD", playlist), master, ranged, gzip, ranged, master, segment, segment, segment,
            ])
            #expect(answers.count == 13)
            #expect(answers[12] == answers[11] && answers[11] == answers[10] && answers[12].head.contains("Content-Type: video/mp2t"))
            #expect(answers[12].body == String(TestLibrary.segmentBytes.reversed().map { Character(Unicode.Scalar($0)) }))
            #expect(answers[2] == answers[1] && answers[2].head.first == "HTTP/1.1 200 OK" && answers[2].body.hasPrefix("#EXTM3U"))
            #expect(answers[3] == answers[7] && answers[3].head.contains("Content-Encoding: gzip"))
            #expect(answers[4].body.isEmpty && answers[4].head == answers[1].head, "HEAD: the GET's head, no body")
            #expect(answers[5] == answers[9] && answers[5].body.contains("#EXT-X-STREAM-INF"))
            #expect(answers[6].head.first == "HTTP/1.1 206 Partial Content" && !answers[6].head.contains("Content-Encoding: gzip"))
            let metrics = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
            // The first master is not cached yet: the route reads it, and its answer is the one given from the cache.
            // Which of them (the third GET, the first gzip one and the HEAD) went below the codec depends on the
            // clock (one read each half idle timeout passes it): the channel test counts them exactly.
            #expect((1...5).contains(metrics["vod_stream_answers_below_codec_total"] ?? 0),
                    "the third GET, the first gzip one, the HEAD and the last two segments")
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream/**",method="GET",status="200"}"#] == 8)
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream/**",method="HEAD",status="200"}"#] == 1)
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream",method="GET",status="200"}"#] == 2)
        }
    }

    /// `stream/` is answered below the codec as `stream/master.m3u8` is, and counted as the master's route.
    @Test(.tags(.processes), .needsExternalTools) func theStreamWithATrailingSlashIsItsMasterFile() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            let slash = Self.write("GET", "/api/media/\(item.id)/stream/")
            let answers = try await KeptAliveHTTP(port: try #require(client.port))
                .exchange([slash, slash, slash, slash, Self.write("GET", "/api/media/\(item.id)/stream/master.m3u8")])
            #expect(answers.count == 5)
            #expect(answers.allSatisfy { $0 == answers[0] } && answers[0].body == TestLibrary.master)
            let metrics = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
            #expect((1...3).contains(metrics["vod_stream_answers_below_codec_total"] ?? 0), "the third and the fourth, and the named one")
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream",method="GET",status="200"}"#] == 4)
            #expect(metrics[#"vod_http_requests_total{route="/api/media/{id}/stream/**",method="GET",status="200"}"#] == 1)
        }
    }

    @Test(.tags(.processes), .needsExternalTools) func splitAndPipelinedRequestsGoThroughTheDecoderInOrder() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            let playlist = "/api/media/\(item.id)/stream/720p/index.m3u8"
            let get = Self.write("GET", playlist)
            let json = RawHTTP.head("GET", "/api/media/\(item.id)")
            let answers = try await KeptAliveHTTP(port: try #require(client.port)).exchange([
                get, get, get,
                // Half a request, then its rest: the rest alone looks like the end of a head, but the decoder has the start.
                KeptAliveHTTP.Write(bytes: Array(get.bytes.prefix(20)), answers: []),
                KeptAliveHTTP.Write(bytes: Array(get.bytes.dropFirst(20)), answers: ["GET"]),
                // Two requests in one read: the JSON's answer first.
                KeptAliveHTTP.Write(bytes: json + get.bytes, answers: ["GET", "GET"]),
                get, get,
            ])
            #expect(answers.count == 8)
            #expect([0, 1, 2, 3, 5, 6, 7].allSatisfy { answers[$0].body.hasPrefix("#EXTM3U") && answers[$0].head == answers[0].head })
            #expect(answers[4].body.contains("\"id\":\(item.id)"), "the JSON answer comes first: \(answers[4].body.prefix(80))")
            let metrics = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
            #expect((1...2).contains(metrics["vod_stream_answers_below_codec_total"] ?? 0),
                    "the third GET, and the last once the decoder is trusted again")
        }
    }

    /// Hummingbird's idle timer sees only the requests that pass the codec: one each half idle timeout does, so a
    /// connection that keeps asking for a playlist is never closed as idle.
    @Test(.tags(.processes, .timeouts), .needsExternalTools) func aBusyConnectionIsNeverTakenForAnIdleOne() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app { $0.idleTimeout = .seconds(1) }.test(.live) { client in
            let get = Self.write("GET", "/api/media/\(item.id)/stream/720p/index.m3u8")
            var paused = get
            paused.pause = 0.1
            // The test client's own connection is idle meanwhile, and closed: the metrics come on the busy one.
            let answers = try await KeptAliveHTTP(port: try #require(client.port))
                .exchange([get, get] + Array(repeating: paused, count: 30) + [Self.write("GET", "/metrics")])
            #expect(answers.count == 33, "every request of 3 s answered on one connection, with an idle timeout of 1 s")
            let metrics = try Exposition(try #require(answers.last).body)
            let below = try #require(metrics["vod_stream_answers_below_codec_total"])
            // 3 s at least: the first two and one more each 0.6 s at most (half a second, and the gap to the next request).
            #expect(below >= 1 && below <= 32 - 2 - 5, "below the codec, but one each half second through it: \(below)")
        }
    }

    private static func request(_ text: String) -> RawRequest? {
        RawRequest(ByteBuffer(string: text))
    }

    private static func write(_ method: String, _ target: String, _ fields: [String] = []) -> KeptAliveHTTP.Write {
        KeptAliveHTTP.Write(bytes: RawHTTP.head(method, target, fields), answers: [method])
    }
}
