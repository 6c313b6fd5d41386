import Foundation
import Testing
import VODCatalog
import VODConformance
import VODTestSupport

/// API nodes and `vod worker` processes sharing a PostgreSQL catalog and folders: nothing is lost, nothing is
/// done twice, nothing is stuck, whatever one process does.
@Suite(.serialized, .tags(.ffmpeg, .postgres, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct ScaleOutTests {
    /// Short clips that differ, so their originals' checksums do.
    static func clips(_ count: Int, in directory: URL, duration: Double = 1) async throws -> [String] {
        try await (0..<count).asyncMap { index in
            let folder = directory.appendingPathComponent("clip\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try await SyntheticClip(width: 320, height: 240, duration: duration + Double(index) * 0.1).make(in: folder)
        }
    }

    @Test func threeWorkersShareTwelveClipsAndFinishEachOnce() async throws {
        let cluster = try await Cluster()
        defer { cluster.close() }
        let api = try await cluster.apiNode()
        let workers = try (0..<3).map { _ in try cluster.worker() }
        for clip in try await Self.clips(12, in: cluster.directory.url) {
            #expect(try await UploadAnswer.send(clip, to: api.url).status == 201)
        }
        try await waitUntil("12 items are ready", timeout: 180) {
            try await cluster.items().filter { $0.status == .ready }.count == 12
        }
        let items = try await cluster.items()
        #expect(items.map(\.attempts) == Array(repeating: 1, count: 12), "each clip was claimed once")
        #expect(items.map(\.leaseToken) == Array(repeating: 1, count: 12))
        for item in items {
            let report = HLSConformance.check(masterURL: URL(fileURLWithPath: try #require(item.hlsPath)).appendingPathComponent("master.m3u8"))
            #expect(report.violations.isEmpty, "\(item.id): \(report.violations)")
        }
        try await waitUntil("every worker has reported its jobs", timeout: 10) {
            try await cluster.catalog.workers().map(\.jobsDone).reduce(0, +) == 12
        }
        let done = try await cluster.catalog.workers().map(\.jobsDone)
        #expect(done.count == 3 && done.allSatisfy { $0 > 0 }, "the work spread over every worker: \(done)")
        let listed = try await ExternalTool.require("curl", ["-sf", "\(api.url)/api/workers"]).standardOutput
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["pid"] as? Int }) == Set(workers.map { Int($0.pid) }))
        #expect(entries.allSatisfy { $0["host"] is String && $0["last_heartbeat"] is String && $0["current_job"] is NSNull })
        #expect(cluster.outputEntries() == items.map { "\($0.id)" }.sorted(), "no staging or second output left")
        for worker in workers { #expect(try await worker.stop(SIGTERM) == 0) }
        #expect(try await cluster.catalog.workers().isEmpty, "workers leave the list when they stop")
        #expect(try await api.stop(SIGTERM) == 0)
    }

    @Test func aWorkerServesItsOwnMetricsAndNothingElse() async throws {
        let cluster = try await Cluster()
        defer { cluster.close() }
        let api = try await cluster.apiNode()
        let port = try LoopbackPort.free()
        let worker = try cluster.worker(arguments: ["--metrics-port", "\(port)"])
        let metricsURL = "http://127.0.0.1:\(port)"
        for clip in try await Self.clips(2, in: cluster.directory.url) {
            #expect(try await UploadAnswer.send(clip, to: api.url).status == 201)
        }
        try await waitUntil("both items are ready", timeout: 60) {
            try await cluster.items().filter { $0.status == .ready }.count == 2
        }
        // The worker counts a job done once the catalog has taken it as ready, so the item can be seen ready a
        // moment before the worker's counters say so.
        try await waitUntil("the worker counts both jobs done", timeout: 10) {
            try Exposition(try await ExternalTool.require("curl", ["-sf", "\(metricsURL)/metrics"]).standardOutput)["vod_transcode_jobs_done_total"] == 2
        }
        let scraped = try await ExternalTool.require("curl", ["-sf", "\(metricsURL)/metrics"]).standardOutput
        let metrics = try Exposition(scraped)
        #expect(metrics["vod_transcode_jobs_started_total"] == 2 && metrics["vod_transcode_jobs_done_total"] == 2)
        #expect(metrics["vod_transcode_jobs_failed_total"] == 0)
        #expect(metrics["vod_transcode_speed_ratio_count"] == 2)
        #expect((metrics["vod_transcode_last_speed_ratio"] ?? 0) > 0, "the last job's speed")
        #expect(metrics[#"vod_queue_depth{status="ready"}"#] == 2, "read from the shared catalog")
        let apiMetrics = try Exposition(try await ExternalTool.require("curl", ["-sf", "\(api.url)/metrics"]).standardOutput)
        #expect(apiMetrics["vod_transcode_jobs_done_total"] == 0, "the API node transcoded nothing")
        let health = try await ExternalTool.run("curl", ["-s", "-w", " %{http_code}", "\(metricsURL)/health"]).standardOutput
        #expect(health == "OK 200")
        let other = try await ExternalTool.run("curl", ["-s", "-w", " %{http_code}", "\(metricsURL)/api/media"]).standardOutput
        #expect(other == #"{"error":"Not found"} 404"#, "a worker serves no API")
        #expect(try await worker.stop(SIGTERM) == 0)
        #expect(try await api.stop(SIGTERM) == 0)
    }

    @Test func aKilledWorkersJobIsFinishedByAnotherAndNothingPartialIsServed() async throws {
        let cluster = try await Cluster()
        defer { cluster.close() }
        let api = try await cluster.apiNode()
        let first = try cluster.worker(arguments: ["--preset", "medium"])
        let clip = try await Self.clips(1, in: cluster.directory.url, duration: 20)[0]
        let id = try #require(try await UploadAnswer.send(clip, to: api.url).id)
        try await waitUntil("the first worker has published its first segments", timeout: 60) {
            try await cluster.catalog.media(id: id).map { $0.status == .processing && $0.isPlayable } ?? false
        }
        first.send(SIGKILL)
        // What the killed worker had published stays playable until its lease is taken back (a player would wait
        // for the playlist to grow, so only its first segment is decoded here).
        let segment = "\(api.url)/api/media/\(id)/stream/240p/segment_000.ts"
        let played = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", segment, "-f", "null", "-"])
        #expect(played.status == 0 && played.standardError == "", "the published part of the killed attempt plays")
        let second = try cluster.worker()
        try await waitUntil("the second worker took the job over", timeout: 60) {
            try await cluster.catalog.media(id: id)?.leaseToken == 2
        }
        // The taken-over attempt's folder is no longer served: the stream is refused until the new attempt has
        // published, then served from the new attempt's folder.
        let before = try #require(try await cluster.catalog.media(id: id))
        let served = try await ExternalTool.run("curl", ["-s", "\(api.url)/api/media/\(id)/stream/240p/index.m3u8"])
        let after = try #require(try await cluster.catalog.media(id: id))
        if served.standardOutput.hasPrefix("#EXTM3U") {
            #expect(after.isPlayable && after.hlsPath == "\(cluster.output)/\(id)-2", "served from the new attempt's folder")
        } else {
            #expect(served.standardOutput == #"{"error":"Media not ready for streaming"}"#)
            #expect(!before.isPlayable, "refused only before the new attempt published")
        }
        try await waitUntil("the second worker finished the job", timeout: 180) {
            try await cluster.catalog.media(id: id)?.status == .ready
        }
        let item = try #require(try await cluster.catalog.media(id: id))
        #expect(item.attempts == 2 && item.leaseToken == 2 && item.hlsPath == "\(cluster.output)/\(id)-2")
        #expect(cluster.outputEntries() == ["\(id)-2"], "the killed worker's staging folder was swept")
        let finished = try await IndependentPlayers.decodeErrors(master: "\(api.url)/api/media/\(id)/stream", program: 0)
        #expect(finished == "")
        #expect(try await second.stop(SIGTERM) == 0)
        #expect(try await api.stop(SIGTERM) == 0)
    }

    @Test(.tags(.timeouts)) func aStalledWorkersLateResultIsDiscardedByTheFencingToken() async throws {
        let cluster = try await Cluster()
        defer { cluster.close() }
        let api = try await cluster.apiNode()
        let stalled = try cluster.worker(lease: 2, arguments: ["--preset", "medium"])
        let clip = try await Self.clips(1, in: cluster.directory.url, duration: 40)[0]
        let id = try #require(try await UploadAnswer.send(clip, to: api.url).id)
        try await waitUntil("the first worker is transcoding", timeout: 60) {
            try await cluster.catalog.media(id: id).map { $0.status == .processing && $0.progress > 0 } ?? false
        }
        stalled.send(SIGSTOP)
        let healthy = try cluster.worker(lease: 2)
        try await waitUntil("the healthy worker finished after the lease ran out", timeout: 180) {
            try await cluster.catalog.media(id: id)?.status == .ready
        }
        let published = try #require(try await cluster.catalog.media(id: id))
        #expect(published.hlsPath == "\(cluster.output)/\(id)-2" && published.leaseToken == 2)
        stalled.send(SIGCONT)
        do {
            try await waitUntil("the stalled worker noticed its lease was gone", timeout: 120) {
                stalled.logText.contains("lease lost to another worker") || stalled.logText.contains("lease ended")
            }
        } catch {
            throw LiveTestFailure(description: "\(error); the stalled worker's log ends:\n\(stalled.logText.suffix(3000))")
        }
        let after = try #require(try await cluster.catalog.media(id: id))
        #expect(after == published, "the late worker wrote nothing: no progress, no second publication")
        try await waitUntil("the late output is gone", timeout: 30) { cluster.outputEntries() == ["\(id)-2"] }
        for worker in [stalled, healthy] { #expect(try await worker.stop(SIGTERM) == 0) }
        #expect(try await api.stop(SIGTERM) == 0)
    }

    @Test func workersAndTheAPIReconnectWhenPostgreSQLRestarts() async throws {
        // A server of its own, so that the restart leaves the other tests' catalogs alone.
        let server = try await ThrowawayPostgres.own()
        let cluster = try await Cluster(server: server)
        defer { cluster.close() }
        let api = try await cluster.apiNode()
        let workers = try (0..<2).map { _ in try cluster.worker() }
        let clips = try await Self.clips(4, in: cluster.directory.url, duration: 4)
        for clip in clips.prefix(2) { #expect(try await UploadAnswer.send(clip, to: api.url).status == 201) }
        try await waitUntil("a job runs", timeout: 60) { try await cluster.items().contains { $0.status == .processing } }
        // Ten listings asked while PostgreSQL is down, one every 200 ms for 2 s, then it starts again. Each waits
        // for the catalog and is answered once it is back, or is refused with 503: never a 500.
        try await server.crash()
        async let answers = withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await ExternalTool.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "60",
                                                        "\(api.url)/api/media"], timeout: 90).standardOutput
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await Task.sleep(for: .seconds(2))
        try await server.start()
        let statuses = try await answers
        #expect(statuses.count == 10 && Set(statuses).isSubset(of: ["200", "503"]),
                "asked while PostgreSQL is down, the API answers once it is back or 503, never 500: \(statuses)")
        try await waitUntil("the API answers again", timeout: 60) {
            try await ExternalTool.run("curl", ["-sf", "\(api.url)/api/media"]).status == 0
        }
        for clip in clips.suffix(2) { #expect(try await UploadAnswer.send(clip, to: api.url).status == 201) }
        try await waitUntil("every job is ready", timeout: 240) {
            (try? await cluster.items().map(\.status)) == Array(repeating: .ready, count: 4)
        }
        for worker in workers { #expect(try await worker.stop(SIGTERM) == 0) }
        #expect(try await api.stop(SIGTERM) == 0)
    }

    @Test func twoAPINodesTakeEightConcurrentUploadsEachOnceAndIntact() async throws {
        let cluster = try await Cluster()
        defer { cluster.close() }
        let nodes = [try await cluster.apiNode(), try await cluster.apiNode()]
        let clips = try await Self.clips(8, in: cluster.directory.url)
        let answers = try await withThrowingTaskGroup(of: UploadAnswer.self) { group in
            for (index, clip) in clips.enumerated() {
                group.addTask { try await UploadAnswer.send(clip, to: nodes[index % 2].url) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.map(\.status) == Array(repeating: 201, count: 8))
        let items = try await cluster.items()
        #expect(items.count == 8 && Set(items.map(\.sourcePath)).count == 8, "each upload landed once")
        let uploaded = try await Set(clips.asyncMap { try await Self.sha256($0) })
        let stored = try await Set(items.asyncMap { try await Self.sha256($0.sourcePath) })
        #expect(stored == uploaded, "every stored original is byte for byte an uploaded file")
        for node in nodes { #expect(try await node.stop(SIGTERM) == 0) }
    }

    static func sha256(_ path: String) async throws -> String {
        try await ExternalTool.require("sha256sum", [path]).standardOutput.split(separator: " ").first.map(String.init) ?? ""
    }
}
