import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// Web pages of other origins may read but not write unless their origin is listed (`--cors-origin`), and an open
/// server refuses to listen where other machines reach it (`--allow-open-writes`).
@Suite(.timeLimit(.minutes(2))) struct CrossOriginWriteTests {
    static let listed = "https://app.example.com"
    static let stranger = "https://evil.example"

    @Test func aPageOfAnotherOriginCannotUploadChangeOrDeleteOnAnOpenServer() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app { $0.corsOrigins = [Self.listed] }.test(.router) { client in
            let writes: [(HTTPRequest.Method, String, HTTPFields, String)] = [
                (.post, "/api/media", [.contentType: "multipart/form-data; boundary=XyZ"],
                 "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.mp4\"\r\n\r\nnot a video\r\n--XyZ--\r\n"),
                (.post, "/api/media?title=clip", [.contentType: "video/mp4"], "not a video"),
                (.patch, "/api/media/\(item.id)", [.contentType: "application/json"], #"{"title":"defaced"}"#),
                (.delete, "/api/media/\(item.id)", [:], ""),
                (.post, "/api/uploads", [.tusResumable: "1.0.0", .uploadLength: "10"], ""),
            ]
            for (method, uri, fields, body) in writes {
                for origin in [Self.stranger, "null", "http://127.0.0.1:1", "https://app.example.com.evil.example"] {
                    var headers = fields
                    headers[.origin] = origin
                    let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body))
                    #expect(response.status == .forbidden, "\(method) \(uri) from \(origin)")
                    #expect(response.body.text == #"{"error":"\#(CrossOriginWrites.refusal(of: origin))"}"#)
                    #expect(response.headers[.accessControlAllowOrigin] == "*")
                }
            }
            #expect(try test.storedMedia().isEmpty, "no upload was stored")
            #expect(try await test.catalog.media(id: item.id)?.title == item.title, "nothing changed")
            let read = try await client.execute(uri: "/api/media/\(item.id)", method: .get, headers: [.origin: Self.stranger])
            #expect(read.status == .ok && read.headers[.accessControlAllowOrigin] == "*", "reads stay open to every origin")
            var listed: HTTPFields = [.origin: Self.listed, .contentType: "application/json"]
            let patched = try await client.execute(uri: "/api/media/\(item.id)", method: .patch, headers: listed,
                                                   body: ByteBuffer(string: #"{"title":"renamed"}"#))
            #expect(patched.status == .ok, "a listed origin's page may write")
            listed[.origin] = nil
            let deleted = try await client.execute(uri: "/api/media/\(item.id)", method: .delete, headers: listed)
            #expect(deleted.status == .noContent, "a client that is not a web page sends no Origin and may write")
        }
    }

    @Test func preflightsApproveWritesOnlyForListedOrigins() async throws {
        let test = try TestLibrary()
        try await test.app { $0.corsOrigins = [Self.listed] }.test(.router) { client in
            for method in ["DELETE", "PATCH", "POST"] {
                let refused = try await client.execute(uri: "/api/media/1", method: .options,
                                                       headers: [.origin: Self.stranger, .accessControlRequestMethod: method])
                #expect(refused.status == .noContent)
                #expect(refused.headers[.accessControlAllowMethods] == "GET, HEAD, OPTIONS", "\(method) is not approved for a stranger")
                #expect(refused.headers[.accessControlAllowOrigin] == "*")
                let approved = try await client.execute(uri: "/api/media/1", method: .options,
                                                        headers: [.origin: "HTTPS://App.Example.com:443", .accessControlRequestMethod: method])
                #expect(approved.headers[.accessControlAllowMethods]?.contains(method) == true, "\(method) is approved for a listed origin")
                #expect(approved.headers[.accessControlAllowOrigin] == "HTTPS://App.Example.com:443")
                #expect(approved.headers[.vary] == "Origin")
            }
            let read = try await client.execute(uri: "/api/media/1/stream", method: .options,
                                                headers: [.origin: Self.stranger, .accessControlRequestMethod: "GET"])
            #expect(read.headers[.accessControlAllowMethods]?.contains("GET") == true, "players on any origin may read")
        }
    }

    @Test func theServersOwnPagesAndItsPublicURLAreItsOwnOrigin() {
        let policy = CrossOriginWrites(allowedOrigins: [], publicURL: "https://videos.example.org/vod/")
        #expect(policy.allows(origin: nil, authority: "127.0.0.1:3000"))
        #expect(policy.allows(origin: "http://127.0.0.1:3000", authority: "127.0.0.1:3000"))
        #expect(policy.allows(origin: "http://localhost", authority: "localhost:80"))
        #expect(policy.allows(origin: "https://vod.example", authority: "vod.example"), "behind a TLS proxy that keeps Host")
        #expect(policy.allows(origin: "https://videos.example.org", authority: "10.0.0.5:3000"), "the public URL's origin")
        #expect(!policy.allows(origin: "http://127.0.0.1:3001", authority: "127.0.0.1:3000"), "another port is another origin")
        #expect(!policy.allows(origin: "http://127.0.0.1:3000", authority: nil))
        #expect(!policy.allows(origin: "file://", authority: "127.0.0.1:3000"))
        #expect(CrossOriginWrites.normalized("https://App.example.com:443/path") == "https://app.example.com")
        #expect(CrossOriginWrites.normalized("ftp://app.example.com") == nil)
    }

    @Test func anOpenServerListensOnlyOnLoopbackUnlessTold() {
        for host in ["127.0.0.1", "127.8.9.10", "localhost", "::1", "[::1]"] {
            #expect(VODServerConfiguration(host: host).exposureRefusal == nil, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.20", "vod.example.com", "127.0.0.1.example.com"] {
            let refusal = VODServerConfiguration(host: host).exposureRefusal
            #expect(refusal?.contains("--allow-open-writes") == true, "\(host)")
            #expect(VODServerConfiguration(host: host, allowOpenWrites: true).exposureRefusal == nil)
            #expect(VODServerConfiguration(host: host, writeProtection: WriteProtection(keys: ["k"])).exposureRefusal == nil)
        }
    }
}
