import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODConformance
import VODEngine
import VODServer
import VODService
import VODTestSupport

/// The goal of progressive publishing and split and stitch: a 1080p upload split on the defaults but for where the
/// split starts (`--split-after` 30 s instead of 120 s, so that a 40 s clip is split as a 135 s one would begin: the
/// first segment alone, then the default 30 s chunk, then the rest) is playable while it is still encoding, never
/// keeps a player that starts then waiting, plays to the end while encoding, and ends a conformant ladder. A 3-minute
/// upload on the defaults themselves, in a release build, is `Scripts/bench`'s section p.
@Suite(.tags(.ffmpeg, .gstreamer, .processes, .realTime), .needsExternalTools, .timeLimit(.minutes(10))) struct PlayableInSecondsTests {
    @Test func aSplit1080pUploadPlaysWhileEncodingWithoutKeepingAPlayerWaiting() async throws {
        let test = try TestLibrary()
        var source = SyntheticClip(width: 1920, height: 1080, duration: 40)
        source.videoCodec = ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "23"]
        let clip = try await source.make(in: test.directory.url)
        // The defaults of `vod serve`: the client-spec ladder, veryfast, 30 s chunks, one worker; split after 30 s.
        let app = test.app { configuration in
            configuration.workers = 1
            configuration.transcodeOptions = TranscodeOptions()
            configuration.split = SplitPolicy(after: 30)
            // The test's own connection waits through the upload.
            configuration.idleTimeout = .seconds(600)
        }
        try await app.test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let id = try await test.curlUpload(clip, title: "Split on the defaults", to: server)
            async let timeline = PublicationTimeline.record(id: id, catalog: test.catalog, timeout: .seconds(600))
            let stream = "\(server)/api/media/\(id)/stream"
            var variants: [String] = []
            try await waitUntil("media \(id) is playable", timeout: 60) {
                let json = try #require(try JSONSerialization.jsonObject(
                    with: Data(buffer: try await client.execute(uri: "/api/media/\(id)", method: .get).body)) as? [String: Any])
                guard json["playable"] as? Bool == true else { return false }
                let master = String(buffer: try await client.execute(uri: "/api/media/\(id)/stream", method: .get).body)
                variants = master.split(separator: "\n").filter { $0.hasSuffix(".m3u8") && !$0.hasPrefix("#") }.map(String.init)
                return true
            }
            #expect(variants.first == "stream/720p/index.m3u8" && variants.count <= 2,
                    "720p, and 1080p where it stays ahead of a player already: \(variants)")
            for variant in variants {
                let first = try await ExternalTool.run("ffmpeg", ["-v", "error", "-live_start_index", "0", "-i", "\(server)/api/media/\(id)/\(variant)",
                    "-map", "0:v:0", "-frames:v", "30", "-f", "null", "-"], timeout: 60)
                #expect(first.status == 0 && first.standardError.isEmpty, "\(variant): \(first.standardError)")
            }
            #expect(try await test.status(of: id) == .processing, "still encoding")

            let live = try await ProgressivePublishingTests.videoFrames(stream)
            #expect(live.status == 0 && live.errors.isEmpty, "\(live.errors)")
            try await waitUntil("media \(id) is ready or failed", timeout: 600) {
                [.ready, .failed].contains(try await test.status(of: id))
            }
            let item = try #require(try await test.catalog.media(id: id))
            #expect(item.status == .ready, "\(item.error ?? "")")
            try await timeline.expectNoStall(in: ["720p", "1080p", "audio_0"])
            #expect(live.frames == Int((try #require(item.duration) * 30).rounded()) && live.frames >= 40 * 30,
                    "started while encoding, played every picture to the end: \(live.frames)")
            let report = HLSConformance.check(masterURL: URL(fileURLWithPath: try #require(item.hlsPath)).appendingPathComponent("master.m3u8"))
            #expect(report.violations.map(\.description) == [])
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
        }
    }
}
