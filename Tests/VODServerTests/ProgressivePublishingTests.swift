import Foundation
import HummingbirdTesting
import Testing
import VODConformance
import VODTestSupport

/// A title is served while it is still being transcoded, from its first segments on, and players that start
/// then play it to the end.
@Suite struct ProgressivePublishingTests {
    @Test func aProcessingTitleIsPlayableFromItsFirstSegmentsToItsEnd() async throws {
        let test = try TestLibrary()
        let clip = try SyntheticClip(width: 320, height: 240, duration: 60).make(in: test.directory.url)
        // A slower preset, so that the transcode runs for seconds after the first segments are out.
        let app = test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.transcodeOptions.preset = "medium"
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

            let master = try await client.execute(uri: "/api/media/\(id)/stream", method: .get)
            #expect(master.status == .ok && master.headers[.cacheControl] == "no-cache")
            let media = try await client.execute(uri: "/api/media/\(id)/stream/240p/index.m3u8", method: .get)
            let text = String(buffer: media.body)
            #expect(text.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && !text.contains("#EXT-X-ENDLIST"), "\(text)")
            #expect(media.headers[.cacheControl] == "no-cache")

            let stream = "\(server)/api/media/\(id)/stream"
            let live = try await offPool { try Self.videoFrames(stream) }
            #expect(try await test.status(of: id) == .ready, "the player read until the title was complete")
            let finished = try await offPool { try Self.videoFrames(stream) }
            #expect(live.status == 0 && live.errors.isEmpty, "\(live.errors)")
            let source = try await offPool {
                try ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                                                     "stream=nb_read_packets", "-of", "csv=p=0", clip]).standardOutput
            }
            #expect(live.frames == finished.frames && "\(finished.frames)" == source.trimmingCharacters(in: .whitespacesAndNewlines),
                    "started while processing, played every frame of the source to the end: \(live.frames) of \(source)")

            let ready = try #require(try JSONSerialization.jsonObject(with: Data(buffer: try await client.execute(uri: "/api/media/\(id)", method: .get).body)) as? [String: Any])
            #expect(ready["playable"] as? Bool == true && ready["ready?"] as? Bool == true)
            #expect(ready["published_at"] as? String == json["published_at"] as? String, "the first playable moment is kept")
            #expect((ready["processing_seconds"] as? Double ?? 0) > 0)
            let item = try #require(try await test.catalog.media(id: id))
            let report = HLSConformance.check(masterURL: URL(fileURLWithPath: try #require(item.hlsPath)).appendingPathComponent("master.m3u8"))
            #expect(report.violations.map(\.description) == [])
        }
    }

    /// The video frames ffmpeg decodes from the first variant of `stream`, read from its first segment (a
    /// growing playlist is otherwise joined near its end) and followed until the playlist ends.
    static func videoFrames(_ stream: String) throws -> (status: Int32, frames: Int, errors: String) {
        let output = try ExternalTool.run("ffmpeg", ["-v", "error", "-live_start_index", "0", "-i", stream,
                                                     "-map", "0:v:0", "-f", "framecrc", "-"], timeout: 240)
        let frames = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("0,") }.count
        return (output.status, frames, output.standardError)
    }
}
