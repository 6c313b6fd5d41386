import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
@testable import VODServer
import VODTestSupport

/// `POST /api/media`: multipart and raw bodies, probing, limits, and nothing left behind on failure.
@Suite(.timeLimit(.minutes(10))) struct UploadTests {
    static func multipart(file: Data?, fileName: String = "clip.mp4", fields: [String: String]) -> (String, ByteBuffer) {
        let boundary = "vod-test-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let file {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n".utf8)
            body += Data("Content-Type: video/mp4\r\n\r\n".utf8) + file + Data("\r\n".utf8)
        }
        body += Data("--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", ByteBuffer(bytes: body))
    }

    @Test(.tags(.ffmpeg), .needsExternalTools) func multipartUploadQueuesTheVideo() async throws {
        let test = try TestLibrary()
        let clip = try Data(contentsOf: URL(fileURLWithPath: try await SyntheticClip(width: 320, height: 240, duration: 1).make(in: test.directory.url)))
        let (contentType, body) = Self.multipart(file: clip, fields: ["title": "My clip", "description": "Shot today"])
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: body)
            #expect(response.status == .created)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let id = try #require(json["id"] as? Int)
            #expect(response.headers[.location] == "http://localhost/api/media/\(id)")
            #expect(json["title"] as? String == "My clip")
            #expect(json["description"] as? String == "Shot today")
            #expect(json["status"] as? String == "pending")
            #expect(json["duration"] as? Int == 1)
            let source = try #require(json["source"] as? [String: Any], "what came in")
            #expect(source["container"] as? String == "mov,mp4,m4a,3gp,3g2,mj2")
            #expect(source["video_codec"] as? String == "h264" && source["profile"] as? String == "Constrained Baseline")
            #expect(source["width"] as? Int == 320 && source["height"] as? Int == 240)
            #expect(source["display_aspect_ratio"] as? String == "4:3" && source["bit_depth"] as? Int == 8)
            #expect(source["frame_rate"] as? Double == 30 && source["rotation"] as? Int == 0)
            #expect(source["hdr"] is NSNull && source["interlaced"] as? Bool == false)
            #expect(abs((source["duration"] as? Double ?? 0) - 1) < 0.1)
            let tracks = try #require(json["tracks"] as? [[String: Any]], "every track and what became of it")
            #expect(tracks.map { "\($0["type"] ?? "") \($0["status"] ?? "")" } == ["video rendition", "audio rendition"])
            #expect(tracks.allSatisfy {
                $0.keys.count == 13 && $0["reason"] is NSNull && $0["loudness"] is NSNull && $0["closed_captions"] is NSNull
            }, "loudness and closed captions are read as the title is transcoded")
            let item = try #require(try await test.catalog.media(id: Int64(id)))
            #expect(item.sourceFileName == "clip.mp4")
            #expect(item.sourceSize == Int64(clip.count))
            #expect(try Data(contentsOf: URL(fileURLWithPath: item.sourcePath)) == clip)
            #expect(item.probeJSON?.contains("\"width\":320") == true)
            var olderRow = item
            (olderRow.sourceSummaryJSON, olderRow.tracksJSON) = (nil, nil)
            let fromProbe = StoredJSONCache().fields(of: olderRow)
            #expect(item.sourceSummaryJSON == fromProbe.sourceJSON && item.tracksJSON == fromProbe.tracksJSON,
                    "the summaries stored at upload are what a row stored before them renders from its probe")
            #expect(try test.storedMedia() == [URL(fileURLWithPath: item.sourcePath).lastPathComponent], "no staging file left")
        }
    }

    @Test(.tags(.ffmpeg), .needsExternalTools) func rawVideoBodyTakesTitleFromTheQuery() async throws {
        let test = try TestLibrary()
        let clip = try Data(contentsOf: URL(fileURLWithPath: try await SyntheticClip(width: 320, height: 240, duration: 1).make(in: test.directory.url)))
        try await test.app().test(.router) { client in
            let response = try await client.execute(
                uri: "/api/media?title=Raw%20clip&description=From%20a%20phone&filename=phone.mov", method: .post,
                headers: [.contentType: "video/quicktime"], body: ByteBuffer(bytes: clip)
            )
            #expect(response.status == .created)
            #expect(response.body.text.contains(#""title":"Raw clip","description":"From a phone","status":"pending""#))
            let item = try #require(try await test.catalog.list(status: nil, limit: 1, offset: 0).first)
            #expect(item.sourceFileName == "phone.mov")
            #expect(item.sourcePath.hasSuffix(".mov"))
        }
    }

    @Test(.tags(.ffmpeg), .needsExternalTools) func untitledUploadsAreNamedAfterTheFile() async throws {
        let test = try TestLibrary()
        let clip = try Data(contentsOf: URL(fileURLWithPath: try await SyntheticClip(width: 320, height: 240, duration: 1).make(in: test.directory.url)))
        let (contentType, body) = Self.multipart(file: clip, fileName: "Holiday 2025.mp4", fields: [:])
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: body)
            #expect(response.body.text.contains(#""title":"Holiday 2025","description":null"#))
        }
    }

    @Test(arguments: [
        ("the file is text", Data("just some notes, not a video\n".utf8)),
        ("an HLS playlist", Data("#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n".utf8)),
        ("random bytes", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })),
    ])
    func nonMediaIsRefusedByProbingAndLeavesNothing(_ kind: String, _ content: Data) async throws {
        let test = try TestLibrary()
        let (contentType, body) = Self.multipart(file: content, fileName: "movie.mp4", fields: ["title": "x"])
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: body)
            #expect(response.status == .unprocessableContent, "\(kind)")
            #expect(response.body.text.hasPrefix(#"{"error":"The uploaded file is not a playable video: "#), "\(kind): \(response.body.text)")
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
            #expect(try test.storedMedia() == [])
        }
    }

    @Test func uploadsWithoutAFileAreBadRequests() async throws {
        let test = try TestLibrary()
        let noFileMessage = #"{"error":"No file uploaded: send a multipart/form-data field named \"file\" or a video/* body"}"#
        try await test.app().test(.router) { client in
            let (contentType, body) = Self.multipart(file: nil, fields: ["title": "no file"])
            let form = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: body)
            #expect(form.status == .badRequest)
            #expect(form.body.text == noFileMessage)
            #expect(try test.storedMedia() == [])
        }
    }

    /// A file of zero bytes was sent: it is refused as media that does not play (422), saying it is empty, whether
    /// it came as the form's `file`, as a raw body or as a tus upload, and nothing is kept.
    @Test func anEmptyFileIsRefusedAsEmpty() async throws {
        let test = try TestLibrary()
        let empty = #"{"error":"The uploaded file is not a playable video: the file is empty"}"#
        try await test.app().test(.live) { client in
            let (contentType, body) = Self.multipart(file: Data(), fields: ["title": "zero"])
            let form = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: body)
            let raw = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: "video/mp4"], body: ByteBuffer())
            let tus = try await client.tus("/api/uploads", .post, [.uploadLength: "0"])
            for (kind, response) in [("form", form), ("raw", raw), ("tus", tus)] {
                #expect(response.status == .unprocessableContent, "\(kind)")
                #expect(response.body.text == empty, "\(kind)")
            }
            #expect(try test.storedMedia() == [".uploads"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(test.mediaDirectory)/.uploads").isEmpty)
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
        }
    }

    @Test func otherContentTypesAreUnsupported() async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            let response = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}")
            )
            #expect(response.status == .unsupportedMediaType)
            #expect(response.body.text == #"{"error":"Unsupported Content-Type 'application/json': send multipart/form-data or video/*"}"#)
            #expect(try test.storedMedia() == [])
        }
    }

    @Test func uploadsOverTheLimitAreRefusedWithoutBeingKept() async throws {
        let test = try TestLibrary()
        let tooLarge = #"{"error":"Upload exceeds the maximum size of 1000 bytes"}"#
        try await test.app(maxUploadSize: 1000).test(.router) { client in
            let declared = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: "video/mp4", .contentLength: "5000"],
                body: ByteBuffer(bytes: [UInt8](repeating: 0, count: 5000))
            )
            #expect(declared.status == .contentTooLarge)
            #expect(declared.body.text == tooLarge)
            let (contentType, body) = Self.multipart(file: Data(count: 5000), fields: [:])
            let streamed = try await client.execute(uri: "/api/media", method: .post, headers: [.contentType: contentType], body: body)
            #expect(streamed.status == .contentTooLarge, "counted while streaming, without a Content-Length")
            #expect(streamed.body.text == tooLarge)
            #expect(try test.storedMedia() == [])
        }
    }

    @Test func aTruncatedMultipartBodyLeavesNothing() async throws {
        let test = try TestLibrary()
        let (contentType, body) = Self.multipart(file: Data(count: 3000), fields: ["title": "cut"])
        try await test.app().test(.router) { client in
            let response = try await client.execute(
                uri: "/api/media", method: .post, headers: [.contentType: contentType],
                body: body.getSlice(at: 0, length: 2000)
            )
            #expect(response.status == .badRequest)
            #expect(response.body.text == #"{"error":"The upload ended before it was complete"}"#)
            #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty)
            #expect(try test.storedMedia() == [])
        }
    }
}
