import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODTestSupport

/// `GET /metrics`: request counts by route pattern, latency histograms, bytes served and uploaded, the queue
/// read from the catalog, jobs and their speed, and segment cache hits, in the Prometheus text format.
@Suite(.serialized, .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct MetricsTests {
    @Test func requestsAreCountedByRoutePatternMethodAndStatus() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let pending = try await test.addPending(title: "waiting")
        try await test.app().test(.router) { client in
            let segment = "/api/media/\(item.id)/stream/720p/segment_000.ts"
            #expect(try await client.execute(uri: "/api/media/\(item.id)", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/api/media/\(item.id + 1000)", method: .get).status == .notFound)
            #expect(try await client.execute(uri: segment, method: .get).status == .ok)
            #expect(try await client.execute(uri: segment, method: .get).status == .ok)
            #expect(try await client.execute(uri: segment, method: .head).status == .ok)
            #expect(try await client.execute(uri: "/nowhere/\(item.id)", method: .get).status == .notFound)

            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let metrics = try Exposition(String(buffer: response.body))
            let media = #"route="/api/media/{id}",method="GET""#
            let stream = #"route="/api/media/{id}/stream/**""#
            #expect(metrics[#"vod_http_requests_total{\#(media),status="200"}"#] == 1)
            #expect(metrics[#"vod_http_requests_total{\#(media),status="404"}"#] == 1)
            #expect(metrics[#"vod_http_requests_total{\#(stream),method="GET",status="200"}"#] == 2)
            #expect(metrics[#"vod_http_requests_total{\#(stream),method="HEAD",status="200"}"#] == 1)
            #expect(metrics[#"vod_http_requests_total{route="unmatched",method="GET",status="404"}"#] == 1)
            #expect(!metrics.series.contains { $0.contains("/nowhere") || $0.contains("/api/media/\(item.id)") }, "raw paths never label")

            #expect(metrics[#"vod_http_request_duration_seconds_count{\#(stream),method="GET"}"#] == 2)
            #expect(metrics[#"vod_http_request_duration_seconds_bucket{\#(stream),method="GET",le="+Inf"}"#] == 2)
            #expect(metrics[#"vod_http_request_duration_seconds_bucket{\#(stream),method="GET",le="10.0"}"#] == 2)
            #expect(metrics[#"vod_http_request_duration_seconds_count{\#(media)}"#] == 2, "a 200 and a 404")
            #expect(metrics[#"vod_http_request_duration_seconds_bucket{\#(media),le="10.0"}"#] == 2)
            let fastest = try #require(metrics[#"vod_http_request_duration_seconds_bucket{\#(media),le="0.001"}"#])
            #expect(fastest <= 2)
            let sum = try #require(metrics[#"vod_http_request_duration_seconds_sum{\#(stream),method="GET"}"#])
            #expect(sum > 0 && sum < 20)

            #expect(metrics["vod_stream_served_bytes_total"] == Double(2 * TestLibrary.segmentBytes.count), "HEAD sends no body")
            #expect(metrics["vod_segment_cache_misses_total"] == 1)
            #expect(metrics["vod_segment_cache_hits_total"] == 1)
            #expect(metrics[#"vod_queue_depth{status="ready"}"#] == 1)
            #expect(metrics[#"vod_queue_depth{status="pending"}"#] == 1)
            #expect(metrics[#"vod_queue_depth{status="processing"}"#] == 0)
            #expect(metrics[#"vod_queue_depth{status="failed"}"#] == 0)
            #expect(metrics["vod_transcode_jobs_started_total"] == 0)
            #expect(metrics["vod_upload_received_bytes_total"] == 0)

            _ = try await test.catalog.claimNextJob(worker: "elsewhere", lease: .seconds(60))
            let later = try await Exposition.scrape(client)
            #expect(later[#"vod_queue_depth{status="processing"}"#] == 1, "item \(pending.id), claimed by another process")
            #expect(later[#"vod_queue_depth{status="pending"}"#] == 0)
            #expect(later[#"vod_http_requests_total{route="/metrics",method="GET",status="200"}"#] == 1)
        }
    }

    @Test func anUploadTranscodedAndServedShowsInEveryMetric() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: test.directory.url)
        let clipSize = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        try await test.app(workers: 1).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let id = try await test.uploadUntilTranscoded(clip, title: "Measured", to: server).id
            // The counter follows the catalog's ready by the time it takes to record the event.
            try await waitUntil("the finished job is counted", timeout: 10) {
                try await Exposition.scrape(client)["vod_transcode_jobs_done_total"] == 1
            }
            let done = try await Exposition.scrape(client)
            #expect(done[#"vod_queue_depth{status="ready"}"#] == 1)
            #expect(done[#"vod_queue_depth{status="pending"}"#] == 0)
            #expect(done[#"vod_queue_depth{status="processing"}"#] == 0)
            #expect(done["vod_transcode_jobs_started_total"] == 1)
            #expect(done["vod_transcode_jobs_failed_total"] == 0)
            #expect(done["vod_transcode_speed_ratio_count"] == 1)
            let speed = try #require(done["vod_transcode_last_speed_ratio"])
            #expect(speed > 0)
            #expect(done["vod_transcode_speed_ratio_sum"] == speed)
            #expect(done["vod_upload_received_bytes_total"] == Double(clipSize))
            #expect(done[#"vod_http_requests_total{route="/api/media",method="POST",status="201"}"#] == 1)

            let variant = try await client.execute(uri: "/api/media/\(id)/stream/240p/index.m3u8", method: .get)
            let name = try #require(String(buffer: variant.body).split(separator: "\n").first { $0.hasSuffix(".ts") })
            let segment = "/api/media/\(id)/stream/240p/\(name)"
            let first = try await client.execute(uri: segment, method: .get)
            #expect(first.status == .ok && first.body.readableBytes > 0)
            let once = try await Exposition.scrape(client)
            let second = try await client.execute(uri: segment, method: .get)
            #expect(second.body == first.body)
            let twice = try await Exposition.scrape(client)
            let served = try #require(twice["vod_stream_served_bytes_total"]) - (try #require(once["vod_stream_served_bytes_total"]))
            #expect(served == Double(first.body.readableBytes))
            // The first filled the cache on the route's way; the second is sent from it by the fast path.
            #expect(twice["vod_segment_cache_hits_total"] == (once["vod_segment_cache_hits_total"] ?? 0) + 1)
            #expect(twice["vod_segment_cache_misses_total"] == once["vod_segment_cache_misses_total"])
        }
    }

    @Test func acceptedTusChunksCountAsUploadBytesAndRefusedOnesDoNot() async throws {
        let test = try TestLibrary()
        try await test.app().test(.router) { client in
            let created = try await client.execute(
                uri: "/api/uploads", method: .post, headers: [HTTPFields.Element.Name("Tus-Resumable")!: "1.0.0", HTTPFields.Element.Name("Upload-Length")!: "100"]
            )
            #expect(created.status == .created)
            let location = try #require(created.headers[.location]?.split(separator: "/", omittingEmptySubsequences: false).suffix(3).joined(separator: "/"))
            let patch: ([UInt8], String?) async throws -> HTTPResponse.Status = { bytes, checksum in
                var headers: HTTPFields = [
                    HTTPFields.Element.Name("Tus-Resumable")!: "1.0.0", HTTPFields.Element.Name("Upload-Offset")!: "0",
                    .contentType: "application/offset+octet-stream",
                ]
                if let checksum { headers[HTTPFields.Element.Name("Upload-Checksum")!] = checksum }
                return try await client.execute(uri: "/" + location, method: .patch, headers: headers, body: ByteBuffer(bytes: bytes)).status
            }
            #expect(try await patch(Array(repeating: 7, count: 40), "sha1 AAAAAAAAAAAAAAAAAAAAAAAAAAA=") == HTTPResponse.Status(code: 460))
            #expect(try await Exposition.scrape(client)["vod_upload_received_bytes_total"] == 0, "a refused chunk is not counted")
            #expect(try await patch(Array(repeating: 7, count: 40), nil) == .noContent)
            #expect(try await Exposition.scrape(client)["vod_upload_received_bytes_total"] == 40)
        }
    }

    @Test func aFailedTranscodeIsCountedAsFailed() async throws {
        let test = try TestLibrary()
        let item = try await test.addPending(title: "missing")
        try await test.app(workers: 1).test(.live) { client in
            try await waitUntil("the job without a source has failed", timeout: 60) { try await test.status(of: item.id) == .failed }
            try await waitUntil("the failure is counted", timeout: 10) {
                try await Exposition.scrape(client)["vod_transcode_jobs_failed_total"] == 1
            }
            let metrics = try await Exposition.scrape(client)
            #expect(metrics["vod_transcode_jobs_started_total"] == 1)
            #expect(metrics["vod_transcode_jobs_done_total"] == 0)
            #expect(metrics["vod_transcode_speed_ratio_count"] == 0)
            #expect(metrics[#"vod_queue_depth{status="failed"}"#] == 1)
            #expect(metrics[#"vod_queue_depth{status="ready"}"#] == 0)
        }
    }
}

/// A Prometheus text exposition, checked line by line: every sample is `name{labels} value`, and every
/// metric has its `# TYPE`.
struct Exposition {
    /// Each sample's value by its series, `name{labels}` as written.
    private(set) var values: [String: Double] = [:]

    var series: Dictionary<String, Double>.Keys { values.keys }

    subscript(series: String) -> Double? { values[series] }

    /// `GET /metrics` from `client`, checked.
    static func scrape(_ client: some TestClientProtocol) async throws -> Exposition {
        let response = try await client.execute(uri: "/metrics", method: .get)
        #expect(response.status == .ok)
        return try Exposition(String(buffer: response.body))
    }

    init(_ text: String) throws {
        let sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? ([-+0-9.eE]+|[-+]?Inf|NaN)$/
        let type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/
        var types: [String: Substring] = [:]
        var names: [String] = []
        for line in text.split(separator: "\n") {
            if let match = line.wholeMatch(of: type) {
                types[String(match.1)] = match.2
            } else if line.hasPrefix("# HELP ") {
                continue
            } else {
                let match = try #require(line.wholeMatch(of: sample), "not a sample: \(line)")
                guard let value = Double(String(match.3)) else { throw LiveTestFailure(description: "no value in \(line)") }
                names.append(String(match.1))
                values["\(match.1)\(match.2 ?? "")"] = value
            }
        }
        #expect(!values.isEmpty)
        for name in names {
            let family = name.replacing(/_(bucket|sum|count)$/, with: "")
            #expect(types[name] != nil || types[family] == "histogram", "no # TYPE for \(name)")
        }
    }
}
