import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Testing
@testable import VODServer
import VODTestSupport

/// `StreamFastPath` with files on disk: a segment whose lookup is cached is answered on the event loop, its body
/// sent from the segment cache's memory (a ready title's, when held) or from the open file by the kernel, with the
/// route's status, headers and bytes for every kind of GET and HEAD, in the order of the requests, and one version
/// of a file replaced while it is sent. `vod_segments_sent_from_file_total` shows which path answered.
@Suite(.tags(.processes), .needsExternalTools, .timeLimit(.minutes(10))) struct StreamFastPathFileTests {
    /// The requests whose answers are compared, each as extra request fields.
    private static func cases(eTag: String, lastModified: String) -> [(String, HTTPFields)] {
        [
            ("plain", [:]),
            ("range", [.range: "bytes=100-199"]),
            ("open range", [.range: "bytes=4990-"]),
            ("suffix", [.range: "bytes=-10"]),
            ("range past the end", [.range: "bytes=4000-9999"]),
            ("unsatisfiable range, for the route's 416", [.range: "bytes=5000-"]),
            ("several ranges, ignored", [.range: "bytes=0-1,5-6"]),
            ("malformed range, ignored", [.range: "lines=1-2"]),
            ("If-None-Match that matches", [.ifNoneMatch: eTag]),
            ("If-None-Match among others", [.ifNoneMatch: "\"x\", W/\(eTag)"]),
            ("If-None-Match that does not", [.ifNoneMatch: "\"another\""]),
            ("If-Modified-Since, unchanged", [.ifModifiedSince: lastModified]),
            ("If-Modified-Since, older", [.ifModifiedSince: "Mon, 01 Jan 2001 00:00:00 GMT"]),
            ("If-Range with the ETag", [.range: "bytes=10-19", .ifRange: eTag]),
            ("If-Range with the date", [.range: "bytes=10-19", .ifRange: lastModified]),
            ("If-Range with another ETag", [.range: "bytes=10-19", .ifRange: "\"another\""]),
        ]
    }

    /// With the segment cache (whose bytes the fast path sends) and without it (the fast path sends the file).
    @Test(arguments: [0, 1 << 20])
    func segmentsAreAnsweredAsTheRouteAnswersThem(segmentCacheSize: Int) async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let uri = "/api/media/\(item.id)/stream/720p/segment_000.ts"
        let json = RawHTTP.head("GET", "/api/media/\(item.id)")
        let last = RawHTTP.head("GET", "/api/media/\(item.id)", ["Connection: close"])
        // The test client's own connection waits while the raw ones go: longer than the default idle timeout on a busy machine.
        try await test.app { configuration in
            configuration.idleTimeout = .seconds(600)
            configuration.segmentCacheSize = segmentCacheSize
        }.test(.live) { client in
            let port = try #require(client.port)
            let first = try await client.execute(uri: uri, method: .get)
            let cases = Self.cases(eTag: try #require(first.headers[.eTag]), lastModified: try #require(first.headers[.lastModified]))
            let requests = cases.flatMap { name, fields in
                ["GET", "HEAD"].map { ("\($0) \(name)", RawHTTP.head($0, uri, fields.map { "\($0.name): \($0.value)" })) }
            }
            // Behind a request still with Hummingbird, each goes the long way: the route's answer, as sent.
            var routed: [String: RawResponse] = [:]
            for (name, request) in requests {
                let responses = try await Self.exchange(port: port, json + request + last, heads: [false, name.hasPrefix("HEAD"), false])
                routed[name] = try #require(responses.count == 3 ? responses[1] : nil, "\(name)")
            }
            let before = try await Exposition.scrape(client)
            var sent = 0
            for (name, request) in requests {
                let responses = try await Self.exchange(port: port, request + last, heads: [name.hasPrefix("HEAD"), false])
                let fast = try #require(responses.first, "\(name)")
                let expected = try #require(routed[name])
                #expect(fast.head == expected.head, "\(name)")
                #expect(fast.body == expected.body, "\(name)")
                // An error's body is not a file's.
                if !name.contains("416") { sent += fast.body.count }
            }
            let after = try await Exposition.scrape(client)
            let fromFile = (after["vod_segments_sent_from_file_total"] ?? 0) - (before["vod_segments_sent_from_file_total"] ?? 0)
            let fromMemory = (after["vod_segment_cache_hits_total"] ?? 0) - (before["vod_segment_cache_hits_total"] ?? 0)
            #expect(after["vod_segment_cache_misses_total"] == before["vod_segment_cache_misses_total"], "nothing read into the cache")
            if segmentCacheSize == 0 {
                #expect(fromFile > 0 && fromMemory == 0, "sent from the file: \(fromFile), from memory: \(fromMemory)")
            } else {
                #expect(fromFile == 0 && fromMemory > 0, "sent from memory: \(fromMemory), from the file: \(fromFile)")
            }
            let served = try #require(after["vod_stream_served_bytes_total"]) - (try #require(before["vod_stream_served_bytes_total"]))
            #expect(served == Double(sent))
            let unsatisfiable = try #require(routed["GET unsatisfiable range, for the route's 416"])
            #expect(unsatisfiable.head.first == "HTTP/1.1 416 Range Not Satisfiable" && unsatisfiable.head.contains("Content-Range: bytes */5000"))
            let stream = #"route="/api/media/{id}/stream/**""#
            #expect(after[#"vod_http_requests_total{\#(stream),method="GET",status="206"}"#] == 12, "6 routed, 6 here")
            #expect(after[#"vod_http_requests_total{\#(stream),method="HEAD",status="304"}"#] == 6, "3 routed, 3 here")
        }
    }

    @Test func pipelinedSegmentsAreAnsweredInOrder() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        // Without the cache, the fast path sends each segment it answers from its file, and counts it.
        try await test.app { $0.segmentCacheSize = 0 }.test(.live) { client in
            let first = "/api/media/\(item.id)/stream/720p/segment_000.ts"
            let second = "/api/media/\(item.id)/stream/720p/segment_001.ts"
            for uri in [first, second, "/api/media/\(item.id)/stream/720p/index.m3u8"] { _ = try await client.execute(uri: uri, method: .get) }
            let before = try await Exposition.scrape(client)
            // Answered here at once, then one for Hummingbird, then one that waits for it, then the end.
            let requests = RawHTTP.head("GET", first, ["Range: bytes=0-9"]) + RawHTTP.head("GET", "/api/media/\(item.id)")
                + RawHTTP.head("GET", second, ["Range: bytes=0-9"])
                + RawHTTP.head("GET", "/api/media/\(item.id)/stream/720p/index.m3u8", ["Connection: close"])
            let outcome = try await RawHTTP(port: try #require(client.port)).send(requests, limit: 5)
            #expect(outcome.status == 206 && outcome.closed)
            let body = outcome.body
            // The body is read as Latin-1: one character a byte.
            let latin1 = { (bytes: [UInt8]) in String(bytes.map { Character(Unicode.Scalar($0)) }) }
            let firstBytes = latin1(Array(TestLibrary.segmentBytes[0...9]))
            let secondBytes = latin1(Array(TestLibrary.segmentBytes.reversed()[0...9]))
            let positions = [body.range(of: firstBytes), body.range(of: "\"id\":\(item.id)"), body.range(of: secondBytes), body.range(of: "#EXTM3U")]
            let found = positions.compactMap { $0?.lowerBound }
            #expect(found.count == 4 && found == found.sorted(), "in the order asked: \(body)")
            let after = try await Exposition.scrape(client)
            let fromFile = { (metrics: Exposition) in metrics["vod_segments_sent_from_file_total"] ?? 0 }
            #expect(fromFile(after) == fromFile(before) + 1, "the segment behind Hummingbird's answer went the long way, the first did not")
        }
    }

    @Test func aFileReplacedByARenameIsSentAsOneVersion() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let folder = test.library.outputFolder(for: item.id) + "/720p"
        let path = "\(folder)/segment_000.ts"
        let old = Data((0..<(48 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try old.write(to: URL(fileURLWithPath: path))
        let new = Data(repeating: 0x47, count: 1 << 20)
        try new.write(to: URL(fileURLWithPath: "\(folder)/next.tmp"))
        try await test.app().test(.live) { client in
            let uri = "/api/media/\(item.id)/stream/720p/segment_000.ts"
            #expect(try await client.execute(uri: uri, method: .head).status == .ok)
            // Renamed over the path once the answer has begun: the whole old version, with its length.
            let requests = RawHTTP.head("GET", uri) + RawHTTP.head("GET", "/api/media/\(item.id)", ["Connection: close"])
            let responses = try await Self.exchange(port: try #require(client.port), requests, heads: [false, false],
                                                    rename: ("\(folder)/next.tmp", path))
            let during = try #require(responses.first)
            #expect(during.head.contains("Content-Length: \(old.count)") && during.body == old)
            #expect(responses.count == 2 && responses[1].head.first == "HTTP/1.1 200 OK", "the connection went on after it")
            // Renamed before the request: the new version, with its own length and validators.
            let after = try await client.execute(uri: uri, method: .get)
            #expect(after.status == .ok && Data(after.body.readableBytesView) == new)
            #expect(after.headers[.contentLength] == "\(new.count)")
            #expect(after.headers[.eTag]?.hasPrefix("\"\(String(new.count, radix: 16))-") == true)
        }
    }

    @Test func pathsOutsideTheTitleStay404() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let folder = test.library.outputFolder(for: item.id)
        let secret = "\(test.root)/secret.ts"
        try Data("PLANTED-SECRET".utf8).write(to: URL(fileURLWithPath: secret))
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/720p/link.ts", withDestinationPath: secret)
        try await test.app { $0.segmentCacheSize = 0 }.test(.live) { client in
            let segment = "/api/media/\(item.id)/stream/720p/segment_001.ts"
            _ = try await client.execute(uri: segment, method: .get)
            let port = try #require(client.port)
            let before = try await Exposition.scrape(client)
            for target in ["720p/link.ts", "720p/../../secret.ts", "720p/%2e%2e/%2e%2e/secret.ts", "../secret.ts", "720p/.hidden.ts"] {
                // Twice: the first lookup of a path is the route's, a second could be the fast path's.
                for _ in 0..<2 {
                    let outcome = try await RawHTTP(port: port).send(
                        RawHTTP.head("GET", segment, ["Range: bytes=0-0"]) + RawHTTP.head("GET", "/api/media/\(item.id)/stream/\(target)", ["Connection: close"]),
                        limit: 60
                    )
                    // The limit only bounds a hang: the server closes as asked once it has answered (5 s was too short
                    // for the first lookup while the side-by-side suites took both cores).
                    let refused = outcome.body.contains("404 Not Found") || outcome.body.contains("400 Bad Request")
                    #expect(outcome.closed && refused && !outcome.body.contains("PLANTED-SECRET"), "\(target): \(outcome.closed ? "answered" : "no close within the limit")")
                }
            }
            let after = try await Exposition.scrape(client)
            #expect(after["vod_segments_sent_from_file_total"] == (before["vod_segments_sent_from_file_total"] ?? 0) + 10,
                    "the segment asked first was sent from its file by the fast path, each time")
            // A served segment later replaced by a link out of the folder: the link is not followed.
            try FileManager.default.removeItem(atPath: "\(folder)/720p/segment_001.ts")
            try FileManager.default.createSymbolicLink(atPath: "\(folder)/720p/segment_001.ts", withDestinationPath: secret)
            let swapped = try await client.execute(uri: segment, method: .get)
            #expect(!String(buffer: swapped.body).contains("PLANTED-SECRET"))
        }
    }

    /// One response as received: its status line and header lines but `Date`, in order, and its body.
    struct RawResponse: Equatable {
        let head: [String]
        let body: Data
    }

    /// The responses to `requests`, sent at once on one connection, the last asking to close it; `heads` says
    /// of each response whether it answers a HEAD (no body whatever its length). With `rename`, that file is
    /// renamed once the first 64 KB have arrived (read slowly, so that the server is still sending).
    private static func exchange(
        port: Int, _ requests: [UInt8], heads: [Bool], rename: (from: String, to: String)? = nil
    ) async throws -> [RawResponse] {
        let script = """
            import os, socket, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(bytes.fromhex(sys.argv[2]))
            s.settimeout(10)
            received = b""
            if len(sys.argv) > 4:
                while len(received) < 65536:
                    received += s.recv(65536)
                os.rename(sys.argv[4], sys.argv[5])
                time.sleep(0.2)
            while True:
                data = s.recv(1 << 20)
                if not data:
                    break
                received += data
            open(sys.argv[3], "wb").write(received)
            """
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("received").path
        let hex = requests.map { String(format: "%02x", $0) }.joined()
        let arguments = ["-c", script, "\(port)", hex, file] + (rename.map { [$0.from, $0.to] } ?? [])
        _ = try await ExternalTool.require("python3", arguments, timeout: 60)
        var rest = try Data(contentsOf: URL(fileURLWithPath: file))
        var responses: [RawResponse] = []
        for isHead in heads {
            guard let end = rest.range(of: Data("\r\n\r\n".utf8)) else { break }
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let length = lines.first { $0.lowercased().hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
            let bodyEnd = min(end.upperBound + (isHead || lines[0].contains(" 304 ") ? 0 : length ?? 0), rest.endIndex)
            responses.append(RawResponse(head: lines.filter { !$0.lowercased().hasPrefix("date:") }, body: Data(rest[end.upperBound..<bodyEnd])))
            rest = Data(rest[bodyEnd...])
        }
        return responses
    }
}
