import Foundation
import HummingbirdTesting
import Testing
import VODConformance
import VODTestSupport

/// A title is served while it is still being transcoded, from its first segments on, and players that start
/// then play it to the end.
///
/// It runs alone, after the others (its real-time tag): a title is `playable` once its smallest rung's publication stays ahead of a player,
/// so how far the rungs have come by then, and whether the playlist still grows, depend on the encoders' pace
/// against the real clock. Beside other suites on 2 cores the smallest rung once finished before the title was
/// playable (CI 24), which is right for the server and wrong for what this test watches.
@Suite(.tags(.ffmpeg, .processes, .realTime), .needsExternalTools, .timeLimit(.minutes(10))) struct ProgressivePublishingTests {
    @Test func aProcessingTitleIsPlayableFromItsFirstSegmentsToItsEnd() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 60).make(in: test.directory.url)
        // A slower preset, so that the transcode runs for seconds after the first segments are out.
        let app = test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.transcodeOptions.preset = "medium"
            // The test's own connection waits while ffmpeg plays the title to its end, twice.
            configuration.idleTimeout = .seconds(600)
        }
        try await app.test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let id = try await test.curlUpload(clip, title: "Growing", to: server)
            var json: [String: Any] = [:]
            try await waitUntil("media \(id) is playable", timeout: 120) {
                let response = try await client.execute(uri: "/api/media/\(id)", method: .get)
                json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                return json["playable"] as? Bool == true
            }
            #expect(json["status"] as? String == "processing" && json["ready?"] as? Bool == false, "\(json)")
            #expect(json["published_at"] is String && json["hls_path"] is NSNull, "\(json)")
            let rungs = try #require(json["rung_progress"] as? [[String: Any]], "\(json)")
            #expect(rungs.map { $0["rung"] as? String } == ["180p", "240p"], "the ladder's rungs, in order: \(rungs)")
            #expect(rungs.first { $0["rung"] as? String == "180p" }.flatMap { $0["progress"] as? Double }.map { $0 > 0 && $0 < 1 } == true,
                    "the smallest rung has segments out and more to encode: \(rungs)")
            #expect(rungs.allSatisfy { ($0["progress"] as? Double).map { $0 < 1 } ?? false },
                    "the other rungs start once the title is playable: \(rungs)")
            #expect(rungs.first { $0["rung"] as? String == "180p" }?["listed"] as? Bool == true,
                    "the smallest rung, which makes the title playable, is in the master: \(rungs)")

            let master = try await client.execute(uri: "/api/media/\(id)/stream", method: .get)
            #expect(master.status == .ok && master.headers[.cacheControl] == "public, max-age=1")
            // 180p, the smallest rung, is listed from the first publication; 240p joins once it stays ahead.
            let media = try await client.execute(uri: "/api/media/\(id)/stream/180p/index.m3u8", method: .get)
            let text = String(buffer: media.body)
            #expect(text.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && !text.contains("#EXT-X-ENDLIST"), "\(text)")
            #expect(media.headers[.cacheControl] == "public, max-age=1")
            let segment = try await client.execute(uri: "/api/media/\(id)/stream/180p/segment_000.ts", method: .get)
            #expect(segment.status == .ok && segment.headers[.cacheControl] == "no-cache")

            // Served from memory between publications, yet each publication is seen at once, with a new ETag.
            let firstCount = text.components(separatedBy: "#EXTINF").count
            var grown = text
            var grownETag = media.headers[.eTag]
            try await waitUntil("the media playlist grows", timeout: 60) {
                let again = try await client.execute(uri: "/api/media/\(id)/stream/180p/index.m3u8", method: .get)
                grown = String(buffer: again.body)
                grownETag = again.headers[.eTag]
                return grown.components(separatedBy: "#EXTINF").count > firstCount
            }
            #expect(grownETag != media.headers[.eTag] && grown.hasPrefix(text.components(separatedBy: "#EXTINF").first!))

            let stream = "\(server)/api/media/\(id)/stream"
            let live = try await Self.videoFrames(stream)
            // The playlists are complete (ENDLIST) before the worker takes the stills and marks the title ready, so
            // the player can end a little before `ready`: seconds on a loaded machine (425 s into a CI run, once).
            try await waitUntil("media \(id) is ready once the player read its end", timeout: 60) {
                try await test.status(of: id) == .ready
            }
            let finished = try await Self.videoFrames(stream)
            #expect(live.status == 0 && live.errors.isEmpty, "\(live.errors)")
            let source = try await ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                "stream=nb_read_packets", "-of", "csv=p=0", clip]).standardOutput
            #expect(live.frames == finished.frames && "\(finished.frames)" == source.trimmingCharacters(in: .whitespacesAndNewlines),
                    "started while processing, played every frame of the source to the end: \(live.frames) of \(source)")

            // The server trusts what the catalog said of a live title for a second, then serves it as ready.
            try await waitUntil("the final playlist is served as a ready title's", timeout: 5) {
                let final = try await client.execute(uri: "/api/media/\(id)/stream/240p/index.m3u8", method: .get)
                #expect(String(buffer: final.body).contains("#EXT-X-ENDLIST"))
                return final.headers[.cacheControl] == "public, max-age=31536000, immutable"
            }
            let ready = try #require(try JSONSerialization.jsonObject(with: Data(buffer: try await client.execute(uri: "/api/media/\(id)", method: .get).body)) as? [String: Any])
            #expect(ready["playable"] as? Bool == true && ready["ready?"] as? Bool == true)
            let finalRungs = try #require(ready["rung_progress"] as? [[String: Any]], "\(ready)")
            let variants = try #require(ready["variants"] as? [[String: Any]])
            #expect(finalRungs.map { $0["rung"] as? String } == variants.map { $0["name"] as? String }
                    && finalRungs.allSatisfy { $0["progress"] as? Double == 1 }, "\(finalRungs)")
            #expect(ready["published_at"] as? String == json["published_at"] as? String, "the first playable moment is kept")
            #expect((ready["processing_seconds"] as? Double ?? 0) > 0)
            let item = try #require(try await test.catalog.media(id: id))
            let report = HLSConformance.check(masterURL: URL(fileURLWithPath: try #require(item.hlsPath)).appendingPathComponent("master.m3u8"))
            #expect(report.violations.map(\.description) == [])
        }
    }

    /// The video frames ffmpeg decodes from the first variant of `stream`, read from its first segment (a
    /// growing playlist is otherwise joined near its end) and followed until the playlist ends.
    static func videoFrames(_ stream: String) async throws -> (status: Int32, frames: Int, errors: String) {
        let output = try await ExternalTool.run("ffmpeg", ["-v", "error", "-live_start_index", "0", "-i", stream,
                                                     "-map", "0:v:0", "-f", "framecrc", "-"], timeout: 240)
        let frames = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("0,") }.count
        return (output.status, frames, output.standardError)
    }
}
