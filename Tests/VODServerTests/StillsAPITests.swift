import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODEngine
import VODTestSupport
@testable import VODServer
import VODService

/// Posters, storyboards and thumbnails of titles transcoded through the real queue, over HTTP.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct StillsAPITests {
    /// `[width, height]` of JPEG bytes, from ffprobe.
    static func size(of bytes: ByteBuffer, in directory: TemporaryDirectory) async throws -> [Int] {
        let file = directory.url.appendingPathComponent("\(UUID().uuidString).jpg")
        try Data(buffer: bytes).write(to: file)
        let picture = try await PictureMeasurements.picture(file.path)
        #expect(picture.codec == "mjpeg")
        return [picture.width, picture.height]
    }

    static func path(of url: String) throws -> String {
        try #require(URL(string: url)).path
    }

    @Test func readyTitleHasAPosterAStoryboardAndThumbnailsOnDemand() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 7).make(in: test.directory.url)
        try await test.app(workers: 1).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let item = try await test.uploadUntilTranscoded(clip, title: "Pictures", to: server)
            let id = item.id
            let media = try await client.execute(uri: "/api/media/\(id)", method: .get)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: media.body)) as? [String: Any])
            let posterURL = try #require(json["poster_url"] as? String)
            #expect(posterURL.hasPrefix("http://") && posterURL.hasSuffix("/api/media/\(id)/poster.jpg"))
            let thumbnails = try #require(json["thumbnails"] as? [String: Any])
            let posters = try #require(thumbnails["posters"] as? [[String: Any]])
            #expect(posters.map { $0["width"] as? Int } == [320], "the 320-wide rendition allows no wider poster")
            #expect(posters.map { $0["height"] as? Int } == [240])
            #expect(try Self.path(of: try #require(thumbnails["thumbnail_url"] as? String)) == "/api/media/\(id)/thumbnail.jpg")

            let poster = try await client.execute(uri: try Self.path(of: posterURL), method: .get)
            #expect(poster.status == .ok)
            #expect(poster.headers[.contentType] == "image/jpeg")
            #expect(try await Self.size(of: poster.body, in: test.directory) == [320, 240])
            let sized = try await client.execute(uri: try Self.path(of: try #require(posters.first?["url"] as? String)), method: .get)
            #expect(sized.status == .ok && sized.body == poster.body)

            let storyboardURL = try #require(thumbnails["storyboard_url"] as? String)
            let storyboard = try await client.execute(uri: try Self.path(of: storyboardURL), method: .get)
            #expect(storyboard.status == .ok)
            #expect(storyboard.headers[.contentType] == "text/vtt")
            let vtt = String(buffer: storyboard.body)
            #expect(vtt.contains("00:00:00.000 --> 00:00:02.000\nstoryboard_0.jpg#xywh=0,0,160,120"), "\(vtt)")
            let sheetURL = try #require(URL(string: "storyboard_0.jpg", relativeTo: URL(string: storyboardURL)))
            let sheet = try await client.execute(uri: sheetURL.path, method: .get)
            #expect(sheet.status == .ok && sheet.headers[.contentType] == "image/jpeg")
            #expect(try await Self.size(of: sheet.body, in: test.directory) == [4 * 160, 120], "4 tiles of 2 s for 7 s")

            let thumbnail = try await client.execute(uri: "/api/media/\(id)/thumbnail.jpg?time=2.5&width=160", method: .get)
            #expect(thumbnail.status == .ok)
            #expect(thumbnail.headers[.contentType] == "image/jpeg")
            #expect(thumbnail.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(try await Self.size(of: thumbnail.body, in: test.directory) == [160, 120])
            let eTag = try #require(thumbnail.headers[.eTag])
            let revalidated = try await client.execute(uri: "/api/media/\(id)/thumbnail.jpg?time=2.5&width=160", method: .get,
                                                       headers: [.ifNoneMatch: eTag])
            #expect(revalidated.status == .notModified)

            // Without its segments the title can render nothing new, so what still answers comes from the cache,
            // found by what it shows: 2.54 s snaps to the keyframe at 2 s, as 2.5 s did.
            for rung in ["240p", "180p"] {
                let folder = "\(try #require(item.hlsPath))/\(rung)"
                for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".ts") {
                    try FileManager.default.removeItem(atPath: "\(folder)/\(file)")
                }
            }
            let cached = try await client.execute(uri: "/api/media/\(id)/thumbnail.jpg?time=2.54&width=160", method: .get)
            #expect(cached.status == .ok && cached.headers[.eTag] == eTag && cached.body == thumbnail.body)
            let uncached = try await client.execute(uri: "/api/media/\(id)/thumbnail.jpg?time=4&width=160", method: .get)
            #expect(uncached.status == .internalServerError, "rendered afresh, and the segments are gone")
        }
    }

    /// The media JSON of `id`, decoded.
    static func media(_ id: Int64, client: some TestClientProtocol) async throws -> [String: Any] {
        let response = try await client.execute(uri: "/api/media/\(id)", method: .get)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func aSplitTitleGetsItsStillsWhenItsChunksAreStitched() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 26).make(in: test.directory.url)
        let app = test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.split = SplitPolicy(after: 20, chunkSeconds: 12)
        }
        try await app.test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let item = try await test.uploadUntilTranscoded(clip, title: "Split", to: server)
            let folder = try #require(item.hlsPath)
            #expect(FileManager.default.fileExists(atPath: "\(folder)/audio_0/index.m3u8"), "split: video-only rungs, the sound apart")
            let json = try await Self.media(item.id, client: client)
            let posterURL = try #require(json["poster_url"] as? String)
            let poster = try await client.execute(uri: try Self.path(of: posterURL), method: .get)
            #expect(poster.status == .ok)
            #expect(try await Self.size(of: poster.body, in: test.directory) == [320, 240])
            let storyboard = try await client.execute(uri: "/api/media/\(item.id)/stills/storyboard.vtt", method: .get)
            let cues = String(buffer: storyboard.body).split(separator: "\n").filter { $0.contains(" --> ") }
            #expect(cues.count == 13, "a tile every 2 s of 26 s, across the chunks")
            #expect(cues.last == "00:00:24.000 --> 00:00:26.000")
        }
    }

    @Test func aTitleWhoseStillsFailIsReadyWithoutThemAndTheFailureIsLogged() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 3).make(in: test.directory.url)
        let capture = LogCapture()
        let app = test.app(logger: capture.logger) { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.writeStills = { _, _, _ in throw MediaError.invalid("no pictures today") }
        }
        try await app.test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let item = try await test.uploadUntilTranscoded(clip, title: "No pictures", to: server)
            let json = try await Self.media(item.id, client: client)
            #expect(json["ready?"] as? Bool == true)
            #expect(json["poster_url"] is NSNull)
            #expect(json["thumbnails"] is NSNull)
            #expect(capture.text.contains("the poster and storyboard could not be written") && capture.text.contains("no pictures today"))
            let poster = try await client.execute(uri: "/api/media/\(item.id)/poster.jpg", method: .get)
            #expect(poster.status == .notFound)
            let thumbnail = try await client.execute(uri: "/api/media/\(item.id)/thumbnail.jpg?time=1", method: .get)
            #expect(thumbnail.status == .ok, "thumbnails on demand need only the renditions")
        }
    }

    @Test(arguments: [
        "time=-1", "time=abc", "time=nan", "time=inf", "width=160", "time=1&width=15", "time=1&width=1921",
        "time=1&width=32.5", "time=1&width=abc", "time=5000",
    ])
    func badThumbnailQueriesAre400WithAJSONError(_ query: String) async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)/thumbnail.jpg?\(query)", method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
            #expect(json?["error"]?.isEmpty == false)
        }
    }

    @Test func unknownAndUnreadyTitlesHaveNoPictures() async throws {
        let test = try TestLibrary()
        let pending = try await test.addPending()
        try await test.app().test(.router) { client in
            let unknown = try await client.execute(uri: "/api/media/999/thumbnail.jpg?time=1", method: .get)
            #expect(unknown.status == .notFound && unknown.body.text == #"{"error":"Media not found"}"#)
            let notReady = try await client.execute(uri: "/api/media/\(pending.id)/thumbnail.jpg?time=1", method: .get)
            #expect(notReady.status == .notFound && notReady.body.text == #"{"error":"Media not ready for streaming"}"#)
            let poster = try await client.execute(uri: "/api/media/\(pending.id)/poster.jpg", method: .get)
            #expect(poster.status == .notFound)
            let json = try await client.execute(uri: "/api/media/\(pending.id)", method: .get)
            #expect(json.body.text.hasSuffix(#","poster_url":null,"thumbnails":null,"chapters":null,"visibility":"public","#
                                              + #""segment_format":"ts","dash_url":null}"#))
        }
    }

    @Test(arguments: ["..%2Fmaster.m3u8", "..%2F720p%2Findex.m3u8", ".hidden.jpg", "%2Fetc%2Fpasswd", "poster.exe"])
    func stillsPathsCannotLeaveTheStillsFolder(_ file: String) async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        try await test.app().test(.router) { client in
            let response = try await client.execute(uri: "/api/media/\(item.id)/stills/\(file)", method: .get)
            #expect(response.status == .notFound)
            #expect(!response.body.text.contains("#EXTM3U") && !response.body.text.contains("root:"))
        }
    }
}
