import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import VODEngine
@testable import VODServer
import VODTestSupport

/// Thumbnails on demand within limits (issue 27): snapped to keyframes and a few widths so that nearby
/// requests share one render, bounded renders with 503 past their queue, and playlists served on time under a
/// flood of them. Real transcodes through the queue, real HTTP on loopback.
@Suite(.serialized, .tags(.ffmpeg, .processes, .realTime), .needsExternalTools, .timeLimit(.minutes(10))) struct ThumbnailLimitsTests {
    /// How many times its idle p99 latency a media playlist may take at p99 under the thumbnail flood.
    static let floodRatioBound = 40.0

    /// A live server with one worker, its renders watched by `watch`, changed by `change`.
    static func app(_ test: TestLibrary, watch: RenderWatch, _ change: (inout VODServerConfiguration) -> Void = { _ in })
        -> some ApplicationProtocol {
        test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            watch.watch(&configuration)
            change(&configuration)
        }
    }

    @Test func nearbyTimesAndWidthsShareOnePictureAndOneRender() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 7).make(in: test.directory.url)
        let watch = RenderWatch()
        try await Self.app(test, watch: watch).test(.live) { client in
            let item = try await test.uploadUntilTranscoded(clip, title: "Snapped", to: "http://127.0.0.1:\(try #require(client.port))")
            let path = "/api/media/\(item.id)/thumbnail.jpg"
            // Keyframes every 2 s: 3.2 and 4.9 are both nearest 4; widths 100 and 150 both round up to 160.
            let first = try await client.execute(uri: "\(path)?time=3.2&width=100", method: .get)
            #expect(first.status == .ok && first.headers[.contentType] == "image/jpeg")
            #expect(first.headers[.thumbnailTime] == "4" && first.headers[.thumbnailWidth] == "160")
            #expect(first.headers[.accessControlExposeHeaders]?.contains("X-Thumbnail-Time, X-Thumbnail-Width") == true)
            #expect(try await StillsAPITests.size(of: first.body, in: test.directory) == [160, 120])
            let second = try await client.execute(uri: "\(path)?time=4.9&width=150", method: .get)
            #expect(second.status == .ok && second.body == first.body && second.headers[.eTag] == first.headers[.eTag])
            #expect(second.headers[.thumbnailTime] == "4" && second.headers[.thumbnailWidth] == "160")
            #expect(watch.count == 1, "one picture, one render")
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(String(buffer: metrics.body).contains("vod_thumbnail_renders_total 1\n"))

            let next = try await client.execute(uri: "\(path)?time=5.1&width=100", method: .get)
            #expect(next.status == .ok && next.headers[.thumbnailTime] == "6" && next.body != first.body)
            let wide = try await client.execute(uri: "\(path)?time=3.2&width=1920", method: .get)
            #expect(wide.headers[.thumbnailWidth] == "320", "never wider than the largest rendition")
            #expect(try await StillsAPITests.size(of: wide.body, in: test.directory) == [320, 240])
            #expect(watch.count == 3)
        }
    }

    @Test func rendersPastTheBoundAndItsQueueAre503WithRetryAfterAndTheServerStaysUp() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 20, hasAudio: false).make(in: test.directory.url)
        let watch = RenderWatch(pause: 0.3)
        let app = Self.app(test, watch: watch) { $0.thumbnailLimits = ThumbnailLimits(renders: 2, waiting: 2) }
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let item = try await test.uploadUntilTranscoded(clip, title: "Bounded", to: "http://127.0.0.1:\(port)")
            let path = "/api/media/\(item.id)/thumbnail.jpg"
            let first = try await client.execute(uri: "\(path)?time=0&width=160", method: .get)
            #expect(first.status == .ok, "the playlists read, and one picture")
            // 19 other pictures: 10 keyframes at 2 s apart in 2 widths, all asked at once.
            let paths = (0..<10).flatMap { key in [160, 320].map { "\(path)?time=\(2 * key)&width=\($0)" } }.dropFirst()
            let answers = try await LoopbackClients.concurrently(Array(paths), port: port)
            let refused = answers.filter { $0.status == 503 }
            #expect(answers.allSatisfy { [200, 503].contains($0.status) }, "\(answers.map(\.status))")
            #expect(answers.count(where: { $0.status == 200 }) >= 4, "2 rendering and 2 waiting are served")
            #expect(refused.count >= 10, "\(answers.map(\.status))")
            for answer in refused {
                #expect(answer.retryAfter == "1")
                #expect(answer.contentType == "application/json; charset=utf-8")
                let json = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: String]
                #expect(json?["error"]?.contains("Too many thumbnails") == true, "\(answer.text)")
            }
            #expect(watch.peak == 2, "never more than 2 renders at once")
            let again = try await client.execute(uri: try #require(refused.first?.path), method: .get)
            #expect(again.status == .ok, "a refused picture renders once the burst is over")
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
        }
    }

    /// The flood of the issue: 16 clients asking thumbnails at random times and widths for 15 s, against a title
    /// with a 1080p rung, while one more asks its 1080p media playlist every 10 ms; its p99 latency against the
    /// same client's on the idle server just before.
    @Test func aThumbnailFloodLeavesPlaylistLatencyNearIdle() async throws {
        let test = try TestLibrary()
        var clip = SyntheticClip(width: 1920, height: 1080, duration: 120, hasAudio: false)
        clip.frameRate = "5"
        let path = try await clip.make(in: test.directory.url)
        let watch = RenderWatch()
        let ladder = [
            Rung(name: "1080p", width: 1920, height: 1080, bitrate: 3_000_000),
            Rung(name: "360p", width: 640, height: 360, bitrate: 400_000),
        ]
        let app = Self.app(test, watch: watch) { configuration in
            configuration.transcodeOptions = TranscodeOptions(ladder: ladder, preset: "ultrafast")
            configuration.idleTimeout = .seconds(600) // the test client's connection waits out the transcode
        }
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = "http://127.0.0.1:\(port)"
            let item = try await test.uploadUntilTranscoded(path, title: "Flooded", to: server)
            let playlist = "/api/media/\(item.id)/stream/1080p/index.m3u8"
            let idle = try await LoopbackClients.latencies(of: playlist, port: port, seconds: 5)
            let script = test.directory.url.appendingPathComponent("thumbnails.lua")
            try Data("""
                math.randomseed(27)
                request = function()
                    local path = string.format("/api/media/\(item.id)/thumbnail.jpg?time=%.2f&width=%d",
                                               math.random() * 119, math.random(16, 1920))
                    return wrk.format("GET", path)
                end
                """.utf8).write(to: script)
            async let flood = ExternalTool.require("wrk", ["-t", "2", "-c", "16", "-d", "15s", "-s", script.path, server], timeout: 60)
            try await Task.sleep(for: .seconds(1))
            let loaded = try await LoopbackClients.latencies(of: playlist, port: port, seconds: 12)
            let load = try await flood.standardOutput
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            let answers = metrics.split(separator: "\n").filter { $0.hasPrefix("vod_http_requests_total") && $0.contains("thumbnail.jpg") }
            let (idleP99, loadedP99) = (LoopbackClients.p99(idle), LoopbackClients.p99(loaded))
            #expect(watch.count > 0 && watch.peak == ThumbnailLimits().renders, "renders ran, never more than the bound at once")
            #expect(answers.contains { $0.contains("status=\"503\"") } && answers.contains { $0.contains("status=\"200\"") })
            // Measured on 2 shared cores, debug build: p99 ratios of 9 to 18 over five runs (9.6 → 175 ms, 17 → 227 ms,
            // 9.9 → 168 ms, 11.8 → 106 ms, 18.5 → 236 ms); before the limits, the issue measured 1–2 → 486 ms, release.
            #expect(loadedP99 < Self.floodRatioBound * idleP99, "playlist p99 \(loadedP99 * 1000) ms under the flood, \(idleP99 * 1000) ms idle")
            print("flood: \(watch.count) renders, at most \(watch.peak) at once; playlist p99 \(idleP99 * 1000) ms idle "
                + "(\(idle.count) requests), \(loadedP99 * 1000) ms under the flood (\(loaded.count)), ratio \(loadedP99 / idleP99)\n"
                + "\(answers.joined(separator: "\n"))\n\(load)")
        }
    }
}
