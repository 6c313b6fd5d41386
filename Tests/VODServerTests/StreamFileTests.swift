import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODServer
import VODTestSupport

/// Serving rendition files: URIs that resolve, HEAD, ranges, validators, caching, gzip and confinement.
@Suite(.timeLimit(.minutes(10))) struct StreamFileTests {
    @Test func everyURIInEveryPlaylistResolvesFromTheURLItWasServedAt() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            let master = URL(string: "http://localhost:3000/api/media/\(item.id)/stream")!
            let response = try await client.execute(uri: master.path, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/vnd.apple.mpegurl")
            let uris = Self.uris(in: response.body.text)
            #expect(uris.count == 2, "the variant and the I-frame playlist")
            var segments = 0
            for uri in uris {
                let variant = try #require(URL(string: uri, relativeTo: master)?.absoluteURL)
                #expect(variant.path.hasPrefix("/api/media/\(item.id)/stream/720p/"), "resolved like a player: \(variant)")
                let playlist = try await client.execute(uri: variant.path, method: .get)
                #expect(playlist.status == .ok, "\(variant.path)")
                #expect(playlist.headers[.contentType] == "application/vnd.apple.mpegurl")
                for segmentURI in Self.uris(in: playlist.body.text) {
                    let segment = try #require(URL(string: segmentURI, relativeTo: variant)?.absoluteURL)
                    let file = try await client.execute(uri: segment.path, method: .get)
                    #expect(file.status == .ok, "\(segment.path)")
                    #expect(file.headers[.contentType] == "video/mp2t")
                    segments += 1
                }
            }
            #expect(segments == 3)
        }
    }

    @Test func theMasterIsAlsoServedUnchangedBelowTheStream() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)/stream/master.m3u8", method: .get)
            #expect(response.body.text == TestLibrary.master)
        }
    }

    /// `stream/` is the master as `stream/master.m3u8` serves it, whose URIs resolve from a base that ends in
    /// `/stream/`, for a ready title and one still processing; asked again, from the fast path, the same.
    @Test(arguments: [true, false]) func theStreamWithATrailingSlashPlaysFromItsOwnURL(ready: Bool) async throws {
        let test = try TestLibrary()
        let item = ready ? try await test.addReady() : try await test.addPlayable()
        try await test.app().test(.live) { client in
            let slash = "/api/media/\(item.id)/stream/"
            let master = URL(string: "http://127.0.0.1" + slash)!
            let named = try await client.execute(uri: slash + "master.m3u8", method: .get)
            for _ in 0..<3 {
                let response = try await client.execute(uri: slash, method: .get)
                #expect(response.status == .ok)
                #expect(response.body.text == TestLibrary.master)
                #expect(response.headers.filter { $0.name != .date } == named.headers.filter { $0.name != .date })
                let uris = Self.uris(in: response.body.text)
                #expect(uris.count == 2, "the variant and the I-frame playlist")
                for uri in uris {
                    let variant = try #require(URL(string: uri, relativeTo: master)?.absoluteURL)
                    #expect(variant.path == slash + uri, "resolved like a player: \(variant)")
                    #expect(try await client.execute(uri: variant.path, method: .get).status == .ok, "\(variant.path)")
                }
            }
            let head = try await client.execute(uri: slash, method: .head)
            #expect(head.status == .ok && head.headers[.eTag] == named.headers[.eTag])
            let notModified = try await client.execute(uri: slash, method: .get, headers: [.ifNoneMatch: named.headers[.eTag] ?? ""])
            #expect(notModified.status == .notModified)
        }
    }

    @Test func headGivesTheHeadersOfGetWithoutABody() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.live) { client in
            for path in ["stream", "stream/720p/segment_000.ts"] {
                let get = try await client.execute(uri: "/api/media/\(item.id)/\(path)", method: .get)
                let head = try await client.execute(uri: "/api/media/\(item.id)/\(path)", method: .head)
                #expect(head.status == .ok)
                #expect(head.body.readableBytes == 0)
                #expect(head.headers[.contentLength] == "\(get.body.readableBytes)")
                #expect(head.headers[.eTag] == get.headers[.eTag])
                #expect(head.headers[.contentType] == get.headers[.contentType])
            }
        }
    }

    @Test func byteRangesAreServedAndRefused() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let bytes = TestLibrary.segmentBytes
        try await test.app().test(.router) { client in
            let uri = "/api/media/\(item.id)/stream/720p/segment_000.ts"
            let cases: [(String, ClosedRange<Int>)] = [
                ("bytes=0-99", 0...99), ("bytes=4990-", 4990...4999), ("bytes=-10", 4990...4999),
                ("bytes=100-99999", 100...4999), ("bytes=-99999", 0...4999),
            ]
            for (header, range) in cases {
                let response = try await client.execute(uri: uri, method: .get, headers: [.range: header])
                #expect(response.status == .partialContent, "\(header)")
                #expect(response.headers[.contentRange] == "bytes \(range.lowerBound)-\(range.upperBound)/5000")
                #expect(response.headers[.contentLength] == "\(range.count)")
                #expect(Array(response.body.readableBytesView) == Array(bytes[range]), "\(header)")
            }
            for header in ["bytes=5000-", "bytes=6000-7000", "bytes=-0"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.range: header])
                #expect(response.status == .rangeNotSatisfiable, "\(header)")
                #expect(response.headers[.contentRange] == "bytes */5000")
                #expect(response.body.text == #"{"error":"Requested range not satisfiable"}"#)
                #expect(response.headers[.accessControlAllowOrigin] == "*")
            }
            for header in ["bytes=0-1,5-6", "items=0-1", "bytes=9-3"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.range: header])
                #expect(response.status == .ok, "ignored: \(header)")
                #expect(response.body.readableBytes == 5000)
            }
            let full = try await client.execute(uri: uri, method: .get)
            let stale = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-9", .ifRange: "\"other\""])
            #expect(stale.status == .ok, "If-Range naming another version gets the whole file")
            let fresh = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=0-9", .ifRange: full.headers[.eTag]!])
            #expect(fresh.status == .partialContent)
        }
    }

    /// A ready title's files are immutable but for its master (at each of its URLs), which gains a rendition when a
    /// caption is added: cached for a year, a browser or CDN never saw the caption.
    @Test func validatorsAnswerNotModified() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            for path in ["stream", "stream/", "stream/master.m3u8", "stream/720p/index.m3u8", "stream/720p/segment_001.ts"] {
                let uri = "/api/media/\(item.id)/\(path)"
                let first = try await client.execute(uri: uri, method: .get)
                let eTag = try #require(first.headers[.eTag])
                let lastModified = try #require(first.headers[.lastModified])
                #expect(first.headers[.cacheControl] == (path.hasPrefix("stream/7") ? "public, max-age=31536000, immutable" : "public, no-cache"),
                        "\(path)")
                #expect(first.headers[.acceptRanges] == "bytes")
                let byTag = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"x\", \(eTag)"])
                #expect(byTag.status == .notModified, "\(path)")
                #expect(byTag.body.readableBytes == 0)
                #expect(byTag.headers[.eTag] == eTag)
                let byDate = try await client.execute(uri: uri, method: .get, headers: [.ifModifiedSince: lastModified])
                #expect(byDate.status == .notModified, "\(path)")
                let changed = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"x\""])
                #expect(changed.status == .ok)
                let earlier = try await client.execute(
                    uri: uri, method: .get, headers: [.ifModifiedSince: "Mon, 01 Jan 2001 00:00:00 GMT"]
                )
                #expect(earlier.status == .ok)
            }
        }
    }

    @Test(.tags(.processes), .needsExternalTools) func playlistsAreGzippedForClientsThatAcceptIt() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            let uri = "/api/media/\(item.id)/stream/720p/index.m3u8"
            let plain = try await client.execute(uri: uri, method: .get)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            let gzipped = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "br, gzip;q=0.8"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.headers[.eTag] != plain.headers[.eTag])
            #expect(try await Gunzip.text(of: gzipped.body) == TestLibrary.variant)
            let refused = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip;q=0"])
            #expect(refused.headers[.contentEncoding] == nil)
            let segment = try await client.execute(
                uri: "/api/media/\(item.id)/stream/720p/segment_000.ts", method: .get, headers: [.acceptEncoding: "gzip"]
            )
            #expect(segment.headers[.contentEncoding] == nil, "segments are already compressed")
        }
    }

    @Test(arguments: [
        "..%2F..%2Fvod.sqlite", "720p/..%2F..%2F..%2Fmedia%2Fvod.sqlite", "720p/.hidden.ts", "720p/index.m3u8%00",
        "720p/escape.ts", "720p/escape-dir/x.ts", "720p/notes.txt", "a/b/c/d.ts",
    ])
    func nothingOutsideTheItemsOwnFolderIsServed(_ path: String) async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let folder = test.library.outputFolder(for: item.id)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/720p/escape.ts", withDestinationPath: test.databasePath)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/720p/escape-dir", withDestinationPath: test.mediaDirectory)
        FileManager.default.createFile(atPath: "\(test.mediaDirectory)/x.ts", contents: Data("secret".utf8))
        FileManager.default.createFile(atPath: "\(folder)/720p/.hidden.ts", contents: Data("secret".utf8))
        FileManager.default.createFile(atPath: "\(folder)/720p/notes.txt", contents: Data("secret".utf8))
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)/stream/\(path)", method: .get)
            #expect(response.status == .notFound)
            #expect(response.body.text.hasPrefix(#"{"error":"Segment not found","segment":"#))
        }
    }

    @Test func aSymlinkThatStaysInsideTheFolderIsServed() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let folder = test.library.outputFolder(for: item.id)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/720p/alias.ts", withDestinationPath: "\(folder)/720p/segment_000.ts")
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)/stream/720p/alias.ts", method: .get)
            #expect(response.status == .ok)
            #expect(Array(response.body.readableBytesView) == TestLibrary.segmentBytes)
        }
    }

    static func uris(in playlist: String) -> [String] {
        playlist.split(separator: "\n").flatMap { line -> [String] in
            if line.hasPrefix("#") {
                guard let start = line.range(of: "URI=\"") else { return [] }
                return [String(line[start.upperBound...].prefix { $0 != "\"" })]
            }
            return [String(line)]
        }
    }
}

/// Decompresses with Debian's gzip, an independent implementation.
enum Gunzip {
    static func text(of buffer: ByteBuffer) async throws -> String {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("body.gz")
        try Data(buffer: buffer).write(to: file)
        return try await ExternalTool.require("gzip", ["-dc", file.path]).standardOutput
    }
}
