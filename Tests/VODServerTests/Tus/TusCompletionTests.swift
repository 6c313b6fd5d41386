import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// A completed upload becomes a media item exactly as `POST /api/media` makes one; nothing else ever does.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct TusCompletionTests {
    /// The media JSON without what differs between two uploads of the same file.
    static func comparable(_ body: ByteBuffer) throws -> [String: String] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
        return json.filter { !["id", "created_at", "updated_at", "stream_url"].contains($0.key) }
            .mapValues { value in
                let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
                return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            }
    }

    @Test func aCompletedUploadBecomesTheSameItemAsAFormUpload() async throws {
        let test = try TestLibrary()
        let clipPath = try await SyntheticClip(width: 320, height: 240, duration: 1).make(in: test.directory.url)
        let clip = Array(try Data(contentsOf: URL(fileURLWithPath: clipPath)))
        try await test.app().test(.router) { client in
            let (contentType, form) = UploadTests.multipart(
                file: Data(clip), fileName: "clip.mp4", fields: ["title": "My clip", "description": "Shot today"]
            )
            let posted = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: form)
            #expect(posted.status == .created)

            let path = try await client.createUpload(
                length: clip.count, metadata: ["filename": "clip.mp4", "title": "My clip", "description": "Shot today"]
            )
            let third = clip.count / 3
            #expect(try await client.patch(path, offset: 0, Array(clip[0..<third]), checksum: true).status == .noContent)
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).count == 1, "no item before the last byte")
            #expect(try await client.patch(path, offset: third, Array(clip[third..<2 * third])).status == .noContent)
            let last = try await client.patch(path, offset: 2 * third, Array(clip[(2 * third)...]), checksum: true)
            #expect(last.status == .noContent)
            #expect(last.headers[.uploadOffset] == "\(clip.count)")
            let mediaID = try #require(last.headers[.mediaID])
            #expect(last.headers[.location] == "http://localhost/api/media/\(mediaID)")

            let shown = try await client.execute(uri: "/api/media/\(mediaID)", method: .get)
            #expect(shown.status == .ok)
            let postedJSON = try Self.comparable(posted.body)
            #expect(try Self.comparable(shown.body) == postedJSON)
            #expect(postedJSON["title"] == #""My clip""# && postedJSON["status"] == #""pending""#)
            let id = try #require(Int64(mediaID))
            let item = try #require(try await test.catalog.media(id: id))
            #expect(item.sourceFileName == "clip.mp4")
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: item.sourcePath))) == clip)

            let head = try await client.tus(path, .head)
            #expect(head.status == .ok)
            #expect(head.headers[.mediaID] == mediaID, "a client that lost the last response learns the item")
            #expect(head.headers[.uploadOffset] == "\(clip.count)")
            let again = try await client.patch(path, offset: clip.count, [])
            #expect(again.status == .conflict, "a completed upload takes no more bytes")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).count == 2)
        }
    }

    @Test func creationWithUploadCanCarryTheWholeFile() async throws {
        let test = try TestLibrary()
        let clipPath = try await SyntheticClip(width: 160, height: 120, duration: 1).make(in: test.directory.url)
        let clip = Array(try Data(contentsOf: URL(fileURLWithPath: clipPath)))
        try await test.app().test(.router) { client in
            let partial = try await client.tus(
                "/api/uploads", .post, [.uploadLength: "\(clip.count)", .uploadMetadata: TusWire.metadata(["title": "In one go"])],
                body: Array(clip[0..<1000])
            )
            #expect(partial.status == .created)
            #expect(partial.headers[.uploadOffset] == "1000")
            #expect(partial.headers[.mediaID] == nil)
            let whole = try await client.tus(
                "/api/uploads", .post, [.uploadLength: "\(clip.count)", .uploadMetadata: TusWire.metadata(["title": "In one go"])],
                body: clip
            )
            #expect(whole.status == .created)
            #expect(whole.headers[.uploadOffset] == "\(clip.count)")
            #expect(whole.headers[.location]?.hasPrefix("http://localhost/api/uploads/") == true)
            let mediaID = try #require(whole.headers[.mediaID].flatMap { Int64($0) })
            #expect(try await test.catalog.media(id: mediaID)?.title == "In one go")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).count == 1, "the partial one is no item")
        }
    }

    @Test func aFileThatIsNotMediaNeverBecomesAnItem() async throws {
        let test = try TestLibrary()
        let text = Array("just some notes, not a video\n".utf8)
        try await test.app().test(.router) { client in
            let (contentType, form) = UploadTests.multipart(file: Data(text), fileName: "notes.mp4", fields: [:])
            let posted = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: form)
            #expect(posted.status == .unprocessableContent)

            let path = try await client.createUpload(length: text.count, metadata: ["filename": "notes.mp4"])
            #expect(try await client.patch(path, offset: 0, Array(text[0..<10])).status == .noContent)
            let last = try await client.patch(path, offset: 10, Array(text[10...]))
            #expect(last.status == posted.status)
            #expect(last.body.text == posted.body.text)
            #expect(last.headers[.tusResumable] == "1.0.0")
            #expect(try await client.tus(path, .head).status == .notFound, "the upload is removed")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
            #expect(try test.storedMedia() == [".uploads"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(test.mediaDirectory)/.uploads").isEmpty)
        }
    }
}
