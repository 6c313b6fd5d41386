import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODServer
import VODTestSupport

/// Bad ids, oversized and malformed requests, slow drips and quiet connections, over real HTTP.
@Suite(.timeLimit(.minutes(10))) struct HostileRequestTests {
    /// A three-second idle timeout and grace period, and a minimum body rate of 2000 bytes per second.
    static func quickTimeouts(_ configuration: inout VODServerConfiguration) {
        configuration.idleTimeout = .seconds(3)
        configuration.minimumBodyRate = 2000
    }

    /// An id that is not a positive integer fitting 64 bits names no media: 404 `Media not found` on every
    /// route that takes one, reads and writes alike, just like an id that does not exist.
    @Test(arguments: ["abc", "-1", "0", "99999999999999999999", "-99999999999999999999", "9223372036854775808", "1.5", "1e3", "0x1", "%31", "%00", "1%00", ""])
    func badIdsAreTheContractsMediaNotFound(_ id: String) async throws {
        let test = try TestLibrary()
        _ = try await test.addReady()
        try await test.app().test(.live) { client in
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, ""), (.get, "/stream"), (.head, "/stream"), (.get, "/stream/720p/index.m3u8"), (.patch, ""),
                (.delete, ""), (.post, "/retry"),
            ]
            for (method, suffix) in routes where !(id.isEmpty && suffix.isEmpty) {
                let response = try await client.execute(
                    uri: "/api/media/\(id)\(suffix)", method: method, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"title":"x"}"#)
                )
                #expect(response.status == .notFound, "\(method) /api/media/\(id)\(suffix)")
                if method != .head {
                    #expect(["{\"error\":\"Media not found\"}", "{\"error\":\"Not found\"}"].contains(response.body.text), "\(method) \(id)\(suffix)")
                }
            }
            #expect(try await test.catalog.media(id: 1)?.title == "The Office S01E03 - Health Care", "nothing changed")
        }
    }

    /// Request heads beyond the limit are refused by the HTTP parser (400, connection closed) before any
    /// handler runs; heads within it are served.
    @Test(.tags(.processes), .needsExternalTools) func oversizedHeadersAreRefused() async throws {
        let test = try TestLibrary()
        try await test.app { $0.maxHeaderSize = 16 * 1024 }.test(.live) { client in
            let raw = RawHTTP(port: try #require(client.port))
            let big = try await raw.send(RawHTTP.head("GET", "/health", ["X-Big: " + String(repeating: "a", count: 20_000)]))
            #expect(big.status == 400)
            #expect(big.closed)
            let many = try await raw.send(RawHTTP.head("GET", "/health", (0..<1200).map { "X-H\($0): \($0)" }))
            #expect(many.status == 400)
            let fine = try await raw.send(RawHTTP.head("GET", "/health", ["X-Fine: " + String(repeating: "a", count: 8000), "Connection: close"]))
            #expect(fine.status == 200)
            #expect(fine.body == "OK")
        }
    }

    /// A JSON body larger than a PATCH could need is refused and changes nothing.
    @Test func oversizedPatchBodiesAreRefused() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            let title = String(repeating: "a", count: 3 << 20)
            let response = try await client.execute(
                uri: "/api/media/\(item.id)", method: .patch, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"\#(title)"}"#)
            )
            #expect([400, 413].contains(response.status.code))
            #expect(response.body.text.hasPrefix(#"{"error":"#))
            #expect(try await test.catalog.media(id: item.id)?.title == item.title)
        }
    }

    /// An upload dripped slower than the minimum rate is answered 408 once the grace period has passed, its
    /// connection is closed, and nothing is kept.
    @Test(.tags(.processes, .timeouts), .needsExternalTools) func slowDripUploadsAreCutOff() async throws {
        let test = try TestLibrary()
        try await test.app(Self.quickTimeouts).test(.live) { client in
            let head = RawHTTP.head("POST", "/api/media?title=drip", ["Content-Type: video/mp4", "Content-Length: 1000000"])
            let outcome = try await RawHTTP(port: try #require(client.port))
                .send(head, body: [UInt8](repeating: 0x47, count: 1_000_000), drip: 20, interval: 0.1, limit: 15)
            #expect(outcome.status == 408)
            #expect(outcome.body.hasPrefix(#"{"error":"The request body arrived slower than 2000 bytes per second"}"#))
            #expect(outcome.elapsed < 8, "cut off after about three seconds, not after the whole body")
            #expect(outcome.closed, "the connection does not live on while the client drips")
            try await waitUntil("the staging file is gone", timeout: 10) { try test.storedMedia().isEmpty }
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
        }
    }

    /// A fast upload is not affected by the minimum rate.
    @Test(.tags(.processes, .timeouts), .needsExternalTools) func uploadsAtAReasonableRatePass() async throws {
        let test = try TestLibrary()
        try await test.app(Self.quickTimeouts).test(.live) { client in
            let head = RawHTTP.head("POST", "/api/media?title=steady", ["Content-Type: video/mp4", "Content-Length: 30000", "Connection: close"])
            let outcome = try await RawHTTP(port: try #require(client.port))
                .send(head, body: Array(String(repeating: "not a video\n", count: 2500).utf8), drip: 1000, interval: 0.1, limit: 20)
            #expect(outcome.status == 422, "received in full and probed: \(outcome)")
        }
    }

    /// Connections that go quiet are closed after the idle timeout: before sending anything, in the middle
    /// of a request head (slowloris), in the middle of a body, and between keep-alive requests.
    @Test(.tags(.processes, .timeouts), .needsExternalTools, arguments: ["nothing", "half a head", "half a body", "after a response"])
    func quietConnectionsAreClosed(_ stage: String) async throws {
        let test = try TestLibrary()
        try await test.app { $0.idleTimeout = .seconds(1) }.test(.live) { client in
            let head: [UInt8] =
                switch stage {
                case "nothing": []
                case "half a head": Array("POST /api/media HTTP/1.1\r\nHost: x\r\nContent-Ty".utf8)
                case "half a body": RawHTTP.head("POST", "/api/media", ["Content-Type: video/mp4", "Content-Length: 100000"]) + [UInt8](repeating: 0, count: 5000)
                default: RawHTTP.head("GET", "/health")
                }
            let outcome = try await RawHTTP(port: try #require(client.port)).send(head, limit: 8)
            #expect(outcome.closed, "\(stage)")
            #expect(outcome.status == ["after a response": 200, "half a body": 408][stage], "\(stage)")
            try await waitUntil("the staging file is gone", timeout: 10) { try test.storedMedia().isEmpty }
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
        }
    }

    /// A body that stops arriving well short of its Content-Length is answered 408 with a JSON error once the idle
    /// timeout passes, then its connection is closed: a multipart or raw upload keeps neither a file nor a row, a
    /// tus chunk keeps the bytes that came (the client resumes from there).
    @Test(.tags(.processes, .timeouts), .needsExternalTools, arguments: ["multipart", "raw", "tus"])
    func aBodyThatStopsArrivingIsAnsweredRequestTimeout(_ kind: String) async throws {
        let test = try TestLibrary()
        try await test.app { $0.idleTimeout = .seconds(1); $0.maxUploadSize = 1 << 40 }.test(.live) { client in
            let port = try #require(client.port)
            let upload = kind == "tus" ? try await Self.createUpload(length: 5_000_000_000, port: port) : ""
            let (head, body): ([UInt8], String) =
                switch kind {
                case "multipart": (
                    RawHTTP.head("POST", "/api/media", ["Content-Type: multipart/form-data; boundary=XX", "Content-Length: 5000000000"]),
                    "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.mp4\"\r\n\r\nabc\r\n--XX--\r\n"
                )
                case "raw": (RawHTTP.head("POST", "/api/media", ["Content-Type: video/mp4", "Content-Length: 5000000000"]), "abc")
                default: (
                    RawHTTP.head("PATCH", upload, [
                        "Tus-Resumable: 1.0.0", "Upload-Offset: 0", "Content-Type: application/offset+octet-stream",
                        "Content-Length: 5000000000",
                    ]),
                    "abc"
                )
                }
            let outcome = try await RawHTTP(port: port).send(head, body: Array(body.utf8), limit: 8)
            #expect(outcome.status == 408, "\(kind): \(outcome)")
            #expect(outcome.body == #"{"error":"The request body stopped arriving: nothing came for 1 s"}"#)
            #expect(outcome.closed && outcome.elapsed < 4, "answered at the idle timeout, then closed: \(outcome)")
            try await waitUntil("the staging file is gone", timeout: 10) { try test.storedMedia().allSatisfy { $0 == ".uploads" } }
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
            if kind == "tus" {
                let data = "\(test.mediaDirectory)/.uploads/\(upload.split(separator: "/").last ?? "").bin"
                #expect(try Data(contentsOf: URL(fileURLWithPath: data)) == Data("abc".utf8))
            }
        }
    }

    /// The path of a new tus upload of `length` bytes, created on a connection of its own: the test client's may
    /// have been closed by a short idle timeout before it is used.
    private static func createUpload(length: Int, port: Int) async throws -> String {
        let creation = RawHTTP.head("POST", "/api/uploads", ["Tus-Resumable: 1.0.0", "Upload-Length: \(length)", "Content-Length: 0"])
        let answer = try #require(try await KeptAliveHTTP(port: port).exchange([.init(bytes: creation, answers: ["POST"])]).first)
        let location = try #require(answer.head.first { $0.lowercased().hasPrefix("location: ") })
        return try #require(URL(string: String(location.dropFirst("location: ".count)))).path
    }

    /// Malformed multipart bodies get 400 JSON and leave neither a file nor a row.
    @Test(arguments: [
        ("no closing boundary", "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.mp4\"\r\n\r\nabc"),
        ("no Content-Disposition", "--XyZ\r\nContent-Type: video/mp4\r\n\r\nabc\r\n--XyZ--\r\n"),
        ("no name", "--XyZ\r\nContent-Disposition: form-data; filename=\"a.mp4\"\r\n\r\nabc\r\n--XyZ--\r\n"),
        ("garbage after a boundary", "--XyZ" + String(repeating: "x", count: 2000) + "\r\n--XyZ--\r\n"),
        ("endless part headers", "--XyZ\r\nX: " + String(repeating: "h", count: 20_000) + "\r\n\r\nabc\r\n--XyZ--\r\n"),
        ("no boundary at all", String(repeating: "just bytes ", count: 100)),
        ("only the closing boundary", "--XyZ--\r\n"),
        ("a file field without a filename", "--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc\r\n--XyZ--\r\n"),
    ])
    func malformedMultipartIsABadRequestAndLeavesNothing(_ name: String, _ body: String) async throws {
        let test = try TestLibrary()
        try await test.app().test(.live) { client in
            let response = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: "multipart/form-data; boundary=XyZ"],
                body: ByteBuffer(string: body)
            )
            #expect(response.status == .badRequest, "\(name): \(response.body.text)")
            #expect(response.body.text.hasPrefix(#"{"error":"#), "\(name)")
            #expect(response.headers[.accessControlAllowOrigin] == "*")
            #expect(try test.storedMedia().isEmpty, "\(name)")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
        }
    }

    /// A multipart Content-Type without a usable boundary is not multipart: 415.
    @Test(arguments: ["multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\(String(repeating: "b", count: 71))"])
    func multipartWithoutAUsableBoundaryIsUnsupported(_ contentType: String) async throws {
        let test = try TestLibrary()
        try await test.app().test(.live) { client in
            let response = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: contentType], body: ByteBuffer(string: "--b\r\n")
            )
            #expect(response.status == .unsupportedMediaType)
            #expect(try test.storedMedia().isEmpty)
        }
    }
}
