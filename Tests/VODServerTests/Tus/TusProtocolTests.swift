import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODService
import VODTestSupport

/// The tus 1.0.0 core protocol and its creation, termination, expiration and checksum extensions, request by
/// request.
@Suite(.timeLimit(.minutes(10))) struct TusProtocolTests {
    @Test func optionsAnnouncesTheProtocolAndOtherPreflightsStayCORS() async throws {
        let test = try TestLibrary()
        try await test.app(maxUploadSize: 5_000_000).test(.router) { client in
            let options = try await client.execute(uri: "/api/uploads", method: .options)
            #expect(options.status == .noContent)
            #expect(options.headers[.tusResumable] == "1.0.0")
            #expect(options.headers[.tusVersion] == "1.0.0")
            #expect(options.headers[.tusExtension] == "creation,creation-with-upload,termination,expiration,checksum")
            #expect(options.headers[.tusMaxSize] == "5000000")
            #expect(options.headers[.tusChecksumAlgorithm] == "sha1")
            #expect(options.headers[.accessControlAllowOrigin] == "*")
            #expect(options.headers[.accessControlAllowMethods]?.contains("PATCH") == true)
            let exposed = try #require(options.headers[.accessControlExposeHeaders])
            for name in ["Upload-Offset", "Upload-Length", "Upload-Expires", "Tus-Resumable", "Media-Id", "Location"] {
                #expect(exposed.contains(name), "\(name)")
            }
            let allowed = try #require(options.headers[.accessControlAllowHeaders])
            for name in ["Upload-Offset", "Upload-Length", "Upload-Metadata", "Upload-Checksum", "Tus-Resumable"] {
                #expect(allowed.contains(name), "\(name)")
            }
            let other = try await client.execute(
                uri: "/api/media/1", method: .options, headers: [.accessControlRequestMethod: "DELETE"]
            )
            #expect(other.status == .noContent, "other preflights are still answered by the CORS middleware")
            #expect(other.headers[.accessControlAllowOrigin] == "*")
            #expect(other.headers[.tusVersion] == nil)
        }
    }

    @Test func requestsWithoutTusResumableArePreconditionFailures() async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            for version: String? in [nil, "0.2.2"] {
                var headers: HTTPFields = [.uploadLength: "10"]
                if let version { headers[.tusResumable] = version }
                let response = try await client.execute(uri: "/api/uploads", method: .post, headers: headers)
                #expect(response.status == .preconditionFailed)
                #expect(response.headers[.tusVersion] == "1.0.0")
                #expect(response.headers[.tusResumable] == "1.0.0")
                #expect(response.body.text == #"{"error":"Send Tus-Resumable: 1.0.0, the only version supported"}"#)
            }
            #expect(!FileManager.default.fileExists(atPath: "\(test.mediaDirectory)/.uploads"), "nothing was created")
        }
    }

    @Test func creationAnswersWithAnAbsoluteLocationAndHeadReportsTheUpload() async throws {
        let test = try TestLibrary()
        try await test.app(maxUploadSize: 1000).test(.router) { client in
            let metadata = TusWire.metadata(["filename": "Été.mp4", "title": "Mon film", "description": "à voir"])
            let created = try await client.tus("/api/uploads", .post, [.uploadLength: "1000", .uploadMetadata: metadata])
            #expect(created.status == .created)
            #expect(created.headers[.tusResumable] == "1.0.0")
            let location = try #require(created.headers[.location])
            let id = String(location.dropFirst("http://localhost/api/uploads/".count))
            #expect(location == "http://localhost/api/uploads/\(id)" && id.count == 32)
            let expires = try #require(created.headers[.uploadExpires].flatMap(HTTPDate.date(from:)))
            #expect(abs(expires.timeIntervalSinceNow - 24 * 3600) < 5, "a day from now")

            let head = try await client.tus("/api/uploads/\(id)", .head)
            #expect(head.status == .ok)
            #expect(head.headers[.uploadOffset] == "0")
            #expect(head.headers[.uploadLength] == "1000")
            #expect(head.headers[.uploadMetadata] == metadata)
            #expect(head.headers[.uploadExpires] == created.headers[.uploadExpires])
            #expect(head.headers[.cacheControl] == "no-store")
            #expect(head.headers[.mediaID] == nil)
            let upload = try #require(TusStore(mediaDirectory: test.mediaDirectory, expiry: 60).upload(id))
            #expect(upload.fileName == "Été.mp4" && upload.title == "Mon film" && upload.description == "à voir")

            let tooLarge = try await client.tus("/api/uploads", .post, [.uploadLength: "1001"])
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.body.text == #"{"error":"Upload exceeds the maximum size of 1000 bytes"}"#)
            for length: String? in [nil, "-5", "ten", ""] {
                var headers: HTTPFields = [:]
                if let length { headers[.uploadLength] = length }
                let refused = try await client.tus("/api/uploads", .post, headers)
                #expect(refused.status == .badRequest, "Upload-Length \(length ?? "missing")")
            }
            let badMetadata = try await client.tus("/api/uploads", .post, [.uploadLength: "10", .uploadMetadata: "title not*base64"])
            #expect(badMetadata.status == .badRequest)
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(test.mediaDirectory)/.uploads").sorted()
                == ["\(id).bin", "\(id).json"], "refused creations leave nothing")

            let unknown = try await client.tus("/api/uploads/\(String(repeating: "0", count: 32))", .head)
            #expect(unknown.status == .notFound)
            #expect(try await client.tus("/api/uploads/..%2F..%2Fvod.sqlite", .head).status == .notFound)
        }
    }

    @Test func patchesAppendAtTheCurrentOffsetOnly() async throws {
        let test = try TestLibrary()
        let bytes = (0..<300).map { UInt8($0 % 251) }
        try await test.app().test(.router) { client in
            let path = try await client.createUpload(length: 300)
            let first = try await client.patch(path, offset: 0, Array(bytes[0..<100]))
            #expect(first.status == .noContent)
            #expect(first.headers[.uploadOffset] == "100")
            #expect(first.headers[.tusResumable] == "1.0.0")
            #expect(first.headers[.uploadExpires].flatMap(HTTPDate.date(from:)) != nil)

            let stale = try await client.patch(path, offset: 0, Array(bytes[0..<100]))
            #expect(stale.status == .conflict)
            #expect(stale.body.text == #"{"error":"Upload-Offset must be the upload's current offset, 100"}"#)
            #expect(try await client.patch(path, offset: 150, Array(bytes[150..<200])).status == .conflict)
            let wrongType = try await client.tus(
                path, .patch, [.uploadOffset: "100", .contentType: "application/octet-stream"], body: Array(bytes[100..<200])
            )
            #expect(wrongType.status == .unsupportedMediaType)
            #expect(wrongType.body.text == #"{"error":"Send the upload's bytes as Content-Type: application/offset+octet-stream"}"#)
            let noOffset = try await client.tus(path, .patch, body: Array(bytes[100..<200]))
            #expect(noOffset.status == .badRequest)
            let tooMuch = try await client.patch(path, offset: 100, Array(bytes[100..<300]) + [0])
            #expect(tooMuch.status == .contentTooLarge, "bytes beyond Upload-Length are refused")

            let head = try await client.tus(path, .head)
            #expect(head.headers[.uploadOffset] == "100", "no refused chunk moved the offset")
            #expect(try await client.patch(path, offset: 100, Array(bytes[100..<200])).headers[.uploadOffset] == "200")
            let id = String(path.dropFirst("/api/uploads/".count))
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(test.mediaDirectory)/.uploads/\(id).bin"))
            #expect(Array(data) == Array(bytes[0..<200]))
            #expect(try await client.patch("/api/uploads/\(String(repeating: "a", count: 32))", offset: 0, [1]).status == .notFound)
        }
    }

    @Test(.tags(.processes), .needsExternalTools) func aChunkWithAWrongChecksumIsDiscardedAndTheRightOneAccepted() async throws {
        let test = try TestLibrary()
        let bytes = (0..<400).map { UInt8(($0 * 7) % 256) }
        try await test.app().test(.router) { client in
            let path = try await client.createUpload(length: 400)
            #expect(try await client.patch(path, offset: 0, Array(bytes[0..<200]), checksum: true).status == .noContent)
            let corrupted = Array(bytes[200..<400].enumerated().map { $0.offset == 50 ? $0.element ^ 0xff : $0.element })
            let mismatch = try await client.tus(
                path, .patch, [.uploadOffset: "200", .uploadChecksum: "sha1 \(try TusWire.sha1(Array(bytes[200..<400])))"],
                body: corrupted
            )
            #expect(mismatch.status.code == 460)
            #expect(mismatch.body.text == #"{"error":"Upload-Checksum does not match the chunk; it was discarded"}"#)
            #expect(try await client.tus(path, .head).headers[.uploadOffset] == "200")
            let id = String(path.dropFirst("/api/uploads/".count))
            #expect(FileStatus(path: "\(test.mediaDirectory)/.uploads/\(id).bin")?.size == 200, "the file was cut back")

            let md5 = try await client.tus(path, .patch, [.uploadOffset: "200", .uploadChecksum: "md5 1B2M2Y8AsgTpgAmY7PhCfg=="], body: [1])
            #expect(md5.status == .badRequest)
            let garbled = try await client.tus(path, .patch, [.uploadOffset: "200", .uploadChecksum: "sha1 !!"], body: [1])
            #expect(garbled.status == .badRequest)

            let right = try await client.patch(path, offset: 200, Array(bytes[200..<300]), checksum: true)
            #expect(right.status == .noContent)
            #expect(right.headers[.uploadOffset] == "300")
        }
    }

    @Test(.tags(.processes), .needsExternalTools) func aChunkCutShortKeepsItsBytesUnlessItHadAChecksum() async throws {
        let test = try TestLibrary()
        let bytes = (0..<1000).map { UInt8($0 % 199) }
        try await test.app().test(.live) { client in
            let path = try await client.createUpload(length: 1000)
            let raw = RawHTTP(port: try #require(client.port))
            /// Sends the head of a 500-byte chunk at `offset` and `sent` bytes of it, then goes away.
            func cut(at offset: Int, sent: Int, _ extra: [String] = []) async throws {
                let head = RawHTTP.tusPatch(path, offset: offset, length: 500, extra)
                let outcome = try await raw.send(head, body: Array(bytes[offset..<offset + sent]), limit: 1)
                #expect(outcome.status == nil, "the server waits for the rest of the chunk")
            }
            try await cut(at: 0, sent: 300)
            try await waitUntil("the cut chunk's bytes count", timeout: 10) {
                try await client.tus(path, .head).headers[.uploadOffset] == "300"
            }
            try await cut(at: 300, sent: 300, ["Upload-Checksum: sha1 \(try TusWire.sha1(Array(bytes[300..<800])))"])
            var resumed: TestResponse?
            try await waitUntil("the next chunk is taken at 300", timeout: 10) {
                resumed = try await client.patch(path, offset: 300, Array(bytes[300..<400]))
                #expect([.noContent, HTTPResponse.Status(code: 423)].contains(resumed?.status), "never 409: the unverifiable bytes were dropped")
                return resumed?.status == .noContent
            }
            #expect(resumed?.headers[.uploadOffset] == "400")
            let id = String(path.dropFirst("/api/uploads/".count))
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(test.mediaDirectory)/.uploads/\(id).bin"))
            #expect(Array(data) == Array(bytes[0..<400]))
        }
    }

    @Test func deleteTerminatesAnUpload() async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            let path = try await client.createUpload(length: 100)
            #expect(try await client.patch(path, offset: 0, Array(repeating: 7, count: 40)).status == .noContent)
            let deleted = try await client.tus(path, .delete)
            #expect(deleted.status == .noContent)
            #expect(deleted.headers[.tusResumable] == "1.0.0")
            #expect(try await client.tus(path, .head).status == .notFound)
            #expect(try await client.patch(path, offset: 40, [1]).status == .notFound)
            #expect(try await client.tus(path, .delete).status == .notFound)
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(test.mediaDirectory)/.uploads").isEmpty)
        }
    }

    @Test(.tags(.timeouts)) func expiredUploadsAreRefusedAndSwept() async throws {
        let test = try TestLibrary()
        try await test.app { $0.uploadExpiry = .seconds(2) }.test(.router) { client in
            let path = try await client.createUpload(length: 100)
            let created = try await client.tus(path, .head)
            let expires = try #require(created.headers[.uploadExpires].flatMap(HTTPDate.date(from:)))
            #expect(abs(expires.timeIntervalSinceNow - 2) < 1.5)
            try await Task.sleep(for: .milliseconds(1200))
            #expect(try await client.patch(path, offset: 0, [1, 2, 3]).status == .noContent, "not expired yet")
            try await Task.sleep(for: .milliseconds(1200))
            #expect(try await client.tus(path, .head).status == .ok, "each chunk moves the expiry on")
            try await Task.sleep(for: .milliseconds(1500))
            #expect(try await client.tus(path, .head).status == .notFound)
            #expect(try await client.patch(path, offset: 3, [4]).status == .notFound)
            let id = String(path.dropFirst("/api/uploads/".count))
            let store = TusStore(mediaDirectory: test.mediaDirectory, expiry: 3600)
            let live = try store.create(length: 10, metadata: nil)
            try await waitUntil("the expiry sweep removes \(id)", timeout: 6) {
                !FileManager.default.fileExists(atPath: store.infoPath(of: id))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder).sorted() == ["\(live.id).bin", "\(live.id).json"])
            #expect(store.removeExpired(now: Date().addingTimeInterval(3601)) == [live.id])
        }
    }
}
