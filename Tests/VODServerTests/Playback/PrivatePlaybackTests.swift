import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
@testable import VODServer
import VODTestSupport

/// A private title uploaded and transcoded through the real queue, played by ffmpeg and GStreamer over HTTP with
/// nothing but the stream URL its playback token came with.
@Suite(.tags(.ffmpeg, .gstreamer, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct PrivatePlaybackTests {
    @Test func aPrivateUploadPlaysWithItsTokenAndOnlyWithIt() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 5).make(in: test.directory.url)
        try await TokenedUpload.app(test).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let created = try await TokenedUpload.upload(clip, to: server, fields: ["title=Unreleased", "visibility=private"])
            #expect(created["visibility"] as? String == "private")
            let id = Int64(try #require(created["id"] as? Int))
            try await waitUntil("media \(id) is ready or failed") { [.ready, .failed].contains(try await test.status(of: id)) }
            #expect(try await test.catalog.media(id: id)?.status == .ready)

            let (token, stream) = try await TokenedUpload.stream(of: id, client: client, server: server)
            #expect(try await IndependentPlayers.programCount(master: stream) == 2)
            let played = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", stream, "-map", "0", "-f", "null", "-"])
            #expect(played.status == 0 && played.standardError.isEmpty, "\(played.standardError)")
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")

            let keyHeader = "X-API-Key: \(PrivateTitleTests.apiKey)"
            let anonymous = try EventStreamClient("\(server)/api/events?last_event_id=0", in: test.directory)
            let keyed = try EventStreamClient("\(server)/api/events?last_event_id=0", headers: [keyHeader], in: test.directory)
            let titled = try EventStreamClient("\(server)/api/media/\(id)/events?last_event_id=0&token=\(token)", in: test.directory)
            defer { [anonymous, keyed, titled].forEach { $0.stop() } }
            try await keyed.waitFor("the keyed feed has media \(id) ready") { $0.mediaID == id && $0.type == "media.ready" }
            try await titled.waitFor("the title's feed with its token has it ready") { $0.mediaID == id && $0.type == "media.ready" }
            try await Task.sleep(for: .milliseconds(500))
            #expect(anonymous.text.hasPrefix("retry:") && anonymous.events.isEmpty, "the anonymous feed has none of its events")

            let bare = "\(server)/api/media/\(id)/stream"
            let refused = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", bare, "-f", "null", "-"])
            #expect(refused.status != 0 && refused.standardError.contains("403"), "\(refused.standardError)")

            for still in ["poster.jpg", "stills/storyboard.vtt", "thumbnail.jpg?time=1&width=160"] {
                let path = "/api/media/\(id)/\(still)"
                #expect(try await client.execute(uri: path, method: .get).status == .forbidden, "\(still)")
                #expect(try await client.execute(uri: PrivateTitleTests.with(token, path), method: .get).status == .ok, "\(still)")
            }
            let storyboard = try await client.execute(uri: "/api/media/\(id)/stills/storyboard.vtt?token=\(token)", method: .get)
            let sheet = try #require(storyboard.body.text.split(separator: "\n").first { $0.hasPrefix("storyboard_") })
            #expect(sheet.hasPrefix("storyboard_0.jpg?token=\(token)#xywh="), "\(sheet)")
            let sheetURI = "/api/media/\(id)/stills/\(sheet.split(separator: "#")[0])"
            let picture = try await client.execute(uri: sheetURI, method: .get)
            #expect(picture.status == .ok && picture.headers[.contentType] == "image/jpeg")

            let list = try await client.execute(uri: "/api/media", method: .get)
            #expect(list.body.text == "[]", "a private title is not listed without a key")
            let published = try await client.execute(uri: "/api/media/\(id)", method: .patch,
                                                     headers: PrivateTitleTests.keyed.merging([.contentType: "application/json"]),
                                                     body: ByteBuffer(string: #"{"visibility":"public"}"#))
            #expect(published.status == .ok)
            let open = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", bare, "-map", "0", "-f", "null", "-"])
            #expect(open.status == 0 && open.standardError.isEmpty, "public again, it plays without a token: \(open.standardError)")
            #expect(try await client.execute(uri: "/api/media/\(id)/poster.jpg", method: .get).status == .ok)

            let raw = try await ExternalTool.require("curl", [
                "-sf", "-H", keyHeader, "-H", "Content-Type: video/mp4", "--data-binary", "@\(clip)",
                "\(server)/api/media?title=Raw&visibility=private",
            ])
            #expect(raw.standardOutput.hasSuffix(#","visibility":"private","segment_format":"ts","dash_url":null}"#), "\(raw.standardOutput)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
            let tus = try await client.execute(uri: "/api/uploads", method: .post, headers: [
                .apiKey: PrivateTitleTests.apiKey, .contentType: "application/offset+octet-stream",
                HTTPField.Name("Tus-Resumable")!: "1.0.0", HTTPField.Name("Upload-Length")!: "\(bytes.count)",
                HTTPField.Name("Upload-Metadata")!: "filename Y2xpcC5tcDQ=,visibility \(Data("private".utf8).base64EncodedString())",
            ], body: ByteBuffer(bytes: bytes))
            let tusID = try #require(tus.headers[HTTPField.Name("Media-Id")!].flatMap { Int64($0) }, "\(tus.status)")
            #expect(try await test.catalog.media(id: tusID)?.visibility == .private)
        }
    }
}

extension HTTPFields {
    /// These fields and `other`'s.
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        merged.append(contentsOf: other)
        return merged
    }
}
