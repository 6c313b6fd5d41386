import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODModel
@testable import VODServer

/// Every endpoint of the client contract, and every error body, through the router.
@Suite(.timeLimit(.minutes(2))) struct MediaAPITests {
    @Test func mediaJSONHasTheContractKeysInOrderThenTheAddedOnes() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let expected = """
                {"id":\(item.id),"title":"The Office S01E03 - Health Care",\
                "description":"about The Office S01E03 - Health Care","status":"ready",\
                "hls_path":"\(test.outputDirectory)/\(item.id)","duration":1320,"ready?":true,\
                "created_at":"\(item.createdAt)","updated_at":"\(item.updatedAt)","progress":1,"error":null,\
                "stream_url":"http://localhost/api/media/\(item.id)/stream",\
                "variants":[{"average_bandwidth":700000,"bandwidth":800000,"codecs":"avc1.64001f,mp4a.40.2","crf":null,\
                "frame_rate":30,"height":720,"name":"720p",\
                "playlist_url":"http://localhost/api/media/\(item.id)/stream/720p/index.m3u8","rate_control":null,"video_range":"SDR","width":1280}],\
                "source":null,"tracks":null,"captions":[],"playable":true,\
                "published_at":"\(try #require(item.publishedAt))",\
                "processing_seconds":\(OrderedJSONObject.number(try #require(item.processingSeconds))),\
                "rung_progress":null,"poster_url":null,"thumbnails":null,"chapters":null,"visibility":"public",\
                "segment_format":"ts","dash_url":null}
                """
            #expect(response.body.text == expected)
            #expect(item.publishedAt == item.updatedAt, "published when it became ready, not before")
        }
    }

    @Test func pendingMediaHasNullsNotMissingKeys() async throws {
        let test = try TestLibrary()
        let item = try await test.addPending()
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)", method: .get)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(json["status"] as? String == "pending")
            #expect(json["ready?"] as? Bool == false)
            #expect(json["duration"] as? Int == 1320, "the probed duration, rounded to whole seconds")
            #expect(json["hls_path"] is NSNull)
            #expect(json["variants"] is NSNull)
            #expect(json["error"] is NSNull)
            #expect(json["progress"] as? Double == 0)
            #expect(json["rung_progress"] is NSNull)
        }
    }

    @Test func listIsNewestFirstWithStatusFilterAndPaging() async throws {
        let test = try TestLibrary()
        let ready = try await test.addReady()
        let first = try await test.addPending(title: "a")
        let second = try await test.addPending(title: "b")
        try await test.app().test(.router) { client in
            func ids(_ uri: String) async throws -> [Int] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok)
                let items = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
                return items.compactMap { $0["id"] as? Int }
            }
            let all = [second.id, first.id, ready.id].map(Int.init)
            #expect(try await ids("/api/media") == all)
            #expect(try await ids("/api/media?status=ready") == [Int(ready.id)])
            #expect(try await ids("/api/media?status=pending&limit=1") == [Int(second.id)])
            #expect(try await ids("/api/media?limit=2&offset=1") == [Int(first.id), Int(ready.id)])
            #expect(try await ids("/api/media?status=failed") == [])
            let bad = try await client.execute(uri: "/api/media?status=done", method: .get)
            #expect(bad.status == .badRequest)
            #expect(bad.body.text == #"{"error":"Unknown status 'done': use pending, processing, ready or failed"}"#)
            let badLimit = try await client.execute(uri: "/api/media?limit=0", method: .get)
            #expect(badLimit.status == .badRequest)
            #expect(badLimit.body.text == #"{"error":"'limit' must be an integer from 1 to 1000"}"#)
        }
    }

    /// The contract's list is of all media: an app with 150 titles sees 150, not the first page.
    @Test func listWithoutParametersHasEveryItem() async throws {
        let test = try TestLibrary()
        var ids: [Int] = []
        for number in 0..<150 { ids.append(Int(try await test.addPending(title: "clip \(number)").id)) }
        let added = ids
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media", method: .get)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            #expect(items.compactMap { $0["id"] as? Int } == added.reversed(), "every item, newest first")
            let page = try await client.execute(uri: "/api/media?offset=140", method: .get)
            let rest = try #require(try JSONSerialization.jsonObject(with: Data(buffer: page.body)) as? [[String: Any]])
            #expect(rest.compactMap { $0["id"] as? Int } == Array(added.prefix(10).reversed()), "offset alone skips")
        }
    }

    @Test func emptyListIsAnEmptyArray() async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            #expect(try await test.catalog.list(status: nil, limit: 1, offset: 0).isEmpty)
            let response = try await client.execute(uri: "/api/media", method: .get)
            #expect(response.body.text == "[]")
        }
    }

    @Test(arguments: ["/api/media/999", "/api/media/abc", "/api/media/0", "/api/media/999/stream",
                      "/api/media/999/stream/720p/index.m3u8"])
    func unknownMediaIsTheContractsNotFound(_ uri: String) async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            #expect(try await test.catalog.media(id: 999) == nil)
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .notFound)
            #expect(response.body.text == #"{"error":"Media not found"}"#)
            #expect(response.headers[.accessControlAllowOrigin] == "*", "CORS on errors too")
        }
    }

    @Test func mediaThatIsNotReadyCannotBeStreamed() async throws {
        let test = try TestLibrary()
        let item = try await test.addPending()
        try await test.app().test(.router) { client in
            for uri in ["/api/media/\(item.id)/stream", "/api/media/\(item.id)/stream/720p/index.m3u8"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound)
                #expect(response.body.text == #"{"error":"Media not ready for streaming"}"#)
            }
        }
    }

    @Test func missingSegmentIsTheContractsSegmentNotFound() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)/stream/720p/segment_009.ts", method: .get)
            #expect(response.status == .notFound)
            #expect(response.body.text == #"{"error":"Segment not found","segment":"720p/segment_009.ts"}"#)
        }
    }

    @Test func patchChangesTitleAndDescription() async throws {
        let test = try TestLibrary()
        let item = try await test.addPending()
        try await test.app().test(.router) { client in
            let response = try await client.execute(
                uri: "/api/media/\(item.id)", method: .patch, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"New title","description":"New description"}"#)
            )
            #expect(response.status == .ok)
            let stored = try await test.catalog.media(id: item.id)
            #expect(stored?.title == "New title")
            #expect(stored?.description == "New description")
            #expect(response.body.text.contains(#""title":"New title""#))

            let onlyDescription = try await client.execute(
                uri: "/api/media/\(item.id)", method: .patch, body: ByteBuffer(string: #"{"description":"Other"}"#)
            )
            #expect(onlyDescription.status == .ok)
            #expect(try await test.catalog.media(id: item.id)?.title == "New title")

            let empty = try await client.execute(uri: "/api/media/\(item.id)", method: .patch, body: ByteBuffer(string: #"{"title":" "}"#))
            #expect(empty.status == .badRequest)
            #expect(empty.body.text == #"{"error":"The title cannot be empty"}"#)
            let garbage = try await client.execute(uri: "/api/media/\(item.id)", method: .patch, body: ByteBuffer(string: "title=x"))
            #expect(garbage.status == .badRequest)
            #expect(garbage.body.text == #"{"error":"Send a JSON object with \"title\" and/or \"description\" strings and/or \"visibility\" (public or private)"}"#)
            let unknown = try await client.execute(uri: "/api/media/999", method: .patch, body: ByteBuffer(string: #"{"title":"x"}"#))
            #expect(unknown.body.text == #"{"error":"Media not found"}"#)
        }
    }

    @Test func retryMovesFailedMediaBackToPending() async throws {
        let test = try TestLibrary()
        let item = try await test.addPending()
        try await test.app().test(.router) { client in
            let early = try await client.execute(uri: "/api/media/\(item.id)/retry", method: .post)
            #expect(early.status == .conflict)
            #expect(early.body.text == #"{"error":"Only failed media can be retried; this media is pending"}"#)
            let job = try #require(try await test.catalog.claimNextJob(worker: "test", lease: .seconds(60)))
            _ = try await test.catalog.markFailed(job, reason: "Transcoding failed: broken")
            let failed = try await client.execute(uri: "/api/media/\(item.id)", method: .get)
            #expect(failed.body.text.contains(#""status":"failed""#))
            #expect(failed.body.text.contains(#""error":"Transcoding failed: broken""#))
            let retried = try await client.execute(uri: "/api/media/\(item.id)/retry", method: .post)
            #expect(retried.status == .ok)
            #expect(retried.body.text.contains(#""status":"pending""#))
            #expect(retried.body.text.contains(#""error":null"#))
            let unknown = try await client.execute(uri: "/api/media/999/retry", method: .post)
            #expect(unknown.body.text == #"{"error":"Media not found"}"#)
        }
    }

    @Test func deleteRemovesTheRowAndEveryFile() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        FileManager.default.createFile(atPath: item.sourcePath, contents: Data("original".utf8))
        try await test.app().test(.router) { client in
            let stream = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get)
            #expect(stream.status == .ok, "cached before the delete")
            let response = try await client.execute(uri: "/api/media/\(item.id)", method: .delete)
            #expect(response.status == .noContent)
            #expect(try await test.catalog.media(id: item.id) == nil)
            #expect(!FileManager.default.fileExists(atPath: item.sourcePath))
            #expect(!FileManager.default.fileExists(atPath: test.library.outputFolder(for: item.id)))
            let gone = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get)
            #expect(gone.body.text == #"{"error":"Media not found"}"#, "the stream cache forgot the item")
            let again = try await client.execute(uri: "/api/media/\(item.id)", method: .delete)
            #expect(again.status == .notFound)
            #expect(again.body.text == #"{"error":"Media not found"}"#)
        }
    }

    @Test func healthSaysOKInPlainText() async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            #expect(FileManager.default.fileExists(atPath: test.databasePath))
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(response.body.text == "OK")
            #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
        }
    }

    @Test func unknownRoutesAnswerJSON() async throws {
        try await TestLibrary().app().test(.router) { client in
            let response = try await client.execute(uri: "/nope", method: .get)
            #expect(response.status == .notFound)
            #expect(response.body.text == #"{"error":"Not found"}"#)
            #expect(response.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test func preflightIsAnsweredForAnyPath() async throws {
        try await TestLibrary().app().test(.router) { client in
            let response = try await client.execute(
                uri: "/api/media/1/stream/720p/index.m3u8", method: .options,
                headers: [.origin: "https://player.example", .accessControlRequestMethod: "GET"]
            )
            #expect(response.status == .noContent)
            #expect(response.headers[.accessControlAllowOrigin] == "*")
            #expect(response.headers[.accessControlAllowMethods]?.contains("GET") == true)
            #expect(response.headers[.accessControlAllowHeaders]?.contains("Range") == true)
            #expect(response.headers[.accessControlExposeHeaders]?.contains("Content-Range") == true)
            #expect(response.headers[.accessControlExposeHeaders]?.contains("Content-Length") == true)
        }
    }
}
