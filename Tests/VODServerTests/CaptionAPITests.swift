import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
@testable import VODServer
import VODTestSupport

/// `POST`, `GET` and `DELETE /api/media/:id/captions`: caption files become subtitle renditions of a ready
/// title without a new transcode, and bad input changes nothing.
@Suite(.timeLimit(.minutes(2))) struct CaptionAPITests {
    static let subRip = """
        1
        00:00:01,000 --> 00:00:03,500
        <font color="#ffff00">Bonjour</font> à tous.

        2
        00:00:05,000 --> 00:00:07,000
        Une réplique qui passe la coupure.

        """
    static let webVTT = "WEBVTT\n\nNOTE written by hand\n\n00:00.500 --> 00:02.000 line:90%\nHello there.\n"

    static func post(_ client: some TestClientProtocol, _ id: Int64, file: Data?, fields: [String: String]) async throws -> TestResponse {
        let (contentType, body) = UploadTests.multipart(file: file, fileName: "captions.srt", fields: fields)
        return try await client.execute(uri: "/api/media/\(id)/captions", method: .post, headers: [.contentType: contentType], body: body)
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func captionsAreAddedListedAndRemoved() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let folder = test.library.outputFolder(for: item.id)
        try await test.app().test(.router) { client in
            let french = try await Self.post(client, item.id, file: Data(Self.subRip.utf8), fields: ["language": "fr", "default": "true"])
            #expect(french.status == .created, "\(french.body.text)")
            let caption = try Self.json(french)
            let frenchID = try #require(caption["id"] as? Int)
            #expect(caption["name"] as? String == "Français" && caption["language"] as? String == "fr" && caption["default"] as? Bool == true)
            #expect(french.headers[.location]?.hasSuffix("/api/media/\(item.id)/captions/\(frenchID)") == true)
            #expect((caption["url"] as? String)?.hasSuffix("/stream/captions_\(frenchID)/subtitles.vtt") == true)

            let english = try await Self.post(client, item.id, file: Data(Self.webVTT.utf8), fields: ["language": "en", "name": "English (SDH)"])
            #expect(english.status == .created, "\(english.body.text)")
            let englishID = try #require(try Self.json(english)["id"] as? Int)

            let master = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get).body.text
            #expect(master.contains(#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,URI="stream/captions_\#(frenchID)/index.m3u8""#), "\(master)")
            #expect(master.contains(#"NAME="English (SDH)",LANGUAGE="en",DEFAULT=NO"#))
            #expect(master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.allSatisfy { $0.contains(#"SUBTITLES="subs""#) })

            let segment = try await client.execute(uri: "/api/media/\(item.id)/stream/captions_\(frenchID)/segment_001.vtt", method: .get)
            #expect(segment.status == .ok && segment.headers[.contentType] == "text/vtt")
            #expect(segment.body.text.contains("Une réplique qui passe la coupure.") && segment.body.text.contains("X-TIMESTAMP-MAP=MPEGTS:"))
            let whole = try await client.execute(uri: "/api/media/\(item.id)/stream/captions_\(frenchID)/subtitles.vtt", method: .get).body.text
            #expect(whole.contains("00:00:01.000 --> 00:00:03.500\nBonjour à tous."), "SubRip's font tags are dropped: \(whole)")

            let listed = try await client.execute(uri: "/api/media/\(item.id)/captions", method: .get)
            let ids = try #require(try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [[String: Any]]).compactMap { $0["id"] as? Int }
            #expect(ids == [frenchID, englishID])
            let media = try Self.json(try await client.execute(uri: "/api/media/\(item.id)", method: .get))
            #expect((media["captions"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Français", "English (SDH)"])

            let deleted = try await client.execute(uri: "/api/media/\(item.id)/captions/\(frenchID)", method: .delete)
            #expect(deleted.status == .noContent)
            let after = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get).body.text
            #expect(!after.contains("captions_\(frenchID)") && after.contains("captions_\(englishID)"))
            #expect(!FileManager.default.fileExists(atPath: "\(folder)/captions_\(frenchID)"))
            let again = try await client.execute(uri: "/api/media/\(item.id)/captions/\(frenchID)", method: .delete)
            #expect(again.status == .notFound && again.body.text == #"{"error":"Caption not found"}"#)

            _ = try await client.execute(uri: "/api/media/\(item.id)/captions/\(englishID)", method: .delete)
            let restored = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get).body.text
            #expect(restored == MasterPlaylist.rewritingURIs(TestLibrary.master, prefix: "stream/"), "the transcoder's master is back")
        }
    }

    /// Every API node follows these events to forget what it cached of the title (`CacheInvalidation`).
    @Test func captionChangesAndEditsAreUpdatedEventsWithTheItemAsItIsAfter() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            func lastEvent() async throws -> MediaEvent { try #require(try await test.catalog.events(after: 0, mediaID: item.id, limit: 100).last) }
            let added = try await Self.post(client, item.id, file: Data(Self.webVTT.utf8), fields: ["language": "en"])
            let captionID = try #require(try Self.json(added)["id"] as? Int)
            #expect(try await lastEvent().type == .updated)
            #expect(try await lastEvent().item.captions.map(\.id) == [Int64(captionID)])
            _ = try await client.execute(uri: "/api/media/\(item.id)/captions/\(captionID)", method: .delete)
            #expect(try await lastEvent().type == .updated)
            #expect(try await lastEvent().item.captions.isEmpty)
            _ = try await client.execute(uri: "/api/media/\(item.id)", method: .patch, headers: [.contentType: "application/json"],
                                         body: ByteBuffer(string: #"{"visibility":"private"}"#))
            #expect(try await lastEvent().type == .updated)
            #expect(try await lastEvent().item.visibility == .private)
        }
    }

    @Test func aSecondCaptionInTheSameLanguageGetsItsOwnName() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            for _ in 0..<2 {
                #expect(try await Self.post(client, item.id, file: Data(Self.webVTT.utf8), fields: ["language": "en"]).status == .created)
            }
            let listed = try await client.execute(uri: "/api/media/\(item.id)/captions", method: .get)
            let names = try #require(try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(names == ["English", "English 2"])
        }
    }

    /// One bad request: what it sends, and the status and message it must get back.
    struct BadCaption: Sendable, CustomStringConvertible {
        var description: String
        var file: Data?
        var fields: [String: String]
        var status: HTTPResponse.Status
        var message: String
    }

    static let badCaptions: [BadCaption] = [
        BadCaption(description: "not UTF-8", file: Data([0x31, 0x0A, 0xFF, 0xFE, 0xC0, 0x0A]), fields: ["language": "en"],
                   status: .unprocessableContent, message: "The caption file cannot be used: the caption file is not UTF-8 text"),
        BadCaption(description: "not parseable", file: Data("Hello\nthis is a letter, not captions\n".utf8), fields: ["language": "en"],
                   status: .unprocessableContent, message: "line 1 of the caption file is not WebVTT or SubRip"),
        BadCaption(description: "no cue", file: Data("WEBVTT\n\nNOTE nothing here\n".utf8), fields: ["language": "en"],
                   status: .unprocessableContent, message: "the caption file holds no cue"),
        BadCaption(description: "cues past the end", file: Data("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nyes\n\n02:00:00.000 --> 02:00:01.000\nno\n".utf8),
                   fields: ["language": "en"], status: .unprocessableContent,
                   message: "cue 2 starts at 02:00:00.000, after the end of the title at 00:22:00.200"),
        BadCaption(description: "malformed language", file: Data(webVTT.utf8), fields: ["language": "en_US"],
                   status: .unprocessableContent, message: "is not a well-formed RFC 5646 language tag"),
        BadCaption(description: "three-letter language", file: Data(webVTT.utf8), fields: ["language": "eng"],
                   status: .unprocessableContent, message: "the two-letter \"en\" exists"),
        BadCaption(description: "no language", file: Data(webVTT.utf8), fields: [:], status: .badRequest, message: "\"language\" field"),
        BadCaption(description: "no file", file: nil, fields: ["language": "en"], status: .badRequest, message: "No caption file"),
        BadCaption(description: "default not a boolean", file: Data(webVTT.utf8), fields: ["language": "en", "default": "maybe"],
                   status: .badRequest, message: "\"default\" must be true or false"),
    ]

    @Test(arguments: badCaptions)
    func badInputIsRefusedAndChangesNothing(_ bad: BadCaption) async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let folder = test.library.outputFolder(for: item.id)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        try await test.app().test(.router) { client in
            let response = try await Self.post(client, item.id, file: bad.file, fields: bad.fields)
            #expect(response.status == bad.status)
            let error = try Self.json(response)["error"] as? String ?? ""
            #expect(error.contains(bad.message), "\(error)")
            let master = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get).body.text
            #expect(master == MasterPlaylist.rewritingURIs(TestLibrary.master, prefix: "stream/"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
        #expect(try await test.catalog.captions(mediaID: item.id).isEmpty)
        #expect(try await test.catalog.media(id: item.id)?.updatedAt == item.updatedAt)
    }

    @Test func captionsNeedAReadyItem() async throws {
        let test = try TestLibrary()
        let pending = try await test.addPending()
        try await test.app().test(.router) { client in
            let response = try await Self.post(client, pending.id, file: Data(Self.webVTT.utf8), fields: ["language": "en"])
            #expect(response.status == .unprocessableContent)
            #expect(response.body.text == #"{"error":"Captions can be added once the media is ready; it is pending"}"#)
            let missing = try await Self.post(client, 999, file: Data(Self.webVTT.utf8), fields: ["language": "en"])
            #expect(missing.status == .notFound && missing.body.text == #"{"error":"Media not found"}"#)
            #expect(try await client.execute(uri: "/api/media/999/captions", method: .get).status == .notFound)
        }
        #expect(try await test.catalog.captions(mediaID: pending.id).isEmpty)
    }
}
