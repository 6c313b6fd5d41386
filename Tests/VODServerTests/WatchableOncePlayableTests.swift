import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODConformance
import VODEngine
import VODServer
import VODService
import VODTestSupport

/// Playable means watchable: from the moment a title says it is playable, every rendition the master offers
/// lists segment k no later than a player that started then, playing at 1×, needs it, and a rung that joins the
/// master later does so for a player that starts when it joins. The split titles' clip is sized so that its
/// encoding runs near real time on this machine, where publishing a whole chunk at a time kept players waiting.
@Suite(.tags(.ffmpeg, .postgres, .processes, .realTime), .needsExternalTools, .timeLimit(.minutes(10))) struct WatchableOncePlayableTests {
    /// A 40 s clip, split after 20 s into chunks of 12 s.
    static let clipSeconds = 40.0
    static let split = SplitPolicy(after: 20, chunkSeconds: 12)
    /// A ladder and preset under which the clip encodes at a few times real time on 2 cores.
    static let ladder = [Rung(name: "540p", width: 960, height: 540, bitrate: 1_500_000),
                         Rung(name: "360p", width: 640, height: 360, bitrate: 600_000)]
    static let preset = "faster"

    static func clip(in directory: URL) async throws -> String {
        try await SyntheticClip(width: 960, height: 540, duration: clipSeconds).make(in: directory)
    }

    @Test func aSplitTitleWithOneInProcessWorkerNeverKeepsAPlayerWaiting() async throws {
        let test = try TestLibrary()
        let app = test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.split = Self.split
            configuration.transcodeOptions.ladder = Self.ladder
            configuration.transcodeOptions.preset = Self.preset
        }
        try await app.test(.live) { client in
            let clip = try await Self.clip(in: test.directory.url)
            let id = try await test.curlUpload(clip, title: "Long", to: "http://127.0.0.1:\(try #require(client.port))")
            let timeline = try await PublicationTimeline.record(id: id, catalog: test.catalog)
            try await waitUntil("media \(id) is ready", timeout: 30) { try await test.status(of: id) == .ready }
            timeline.expectNoStall(in: ["540p", "360p", "audio_0"])
        }
    }

    /// A ladder made too heavy to keep up on purpose: its top rung encodes well below real time on 2 cores
    /// (veryslow, 25 times the pixels of the smallest rung), its smallest rung well above. The title is playable with the
    /// smallest rung alone, the top rung joins the master later, and no player waits for a segment of a rung it
    /// was offered: one that starts at playable, nor one that starts when the top rung joins.
    @Test func aLadderThatCannotKeepUpIsPlayableWithItsSmallestRungAndTheOthersJoinLater() async throws {
        let test = try TestLibrary()
        let app = test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.transcodeOptions.ladder = [Rung(name: "360p", width: 640, height: 360, bitrate: 600_000),
                                                     Rung(name: "72p", width: 128, height: 72, bitrate: 100_000)]
            configuration.transcodeOptions.preset = "veryslow"
            configuration.transcodeOptions.segmentDuration = 2
        }
        try await app.test(.live) { client in
            let clip = try await SyntheticClip(width: 640, height: 360, duration: 6).make(in: test.directory.url)
            let id = try await test.curlUpload(clip, title: "Heavy", to: "http://127.0.0.1:\(try #require(client.port))")
            async let recorded = PublicationTimeline.record(id: id, catalog: test.catalog)
            var rungs: [[String: Any]] = []
            var variants: [String] = []
            try await waitUntil("media \(id) is playable", timeout: 60) {
                let json = try #require(try JSONSerialization.jsonObject(
                    with: Data(buffer: try await client.execute(uri: "/api/media/\(id)", method: .get).body)) as? [String: Any])
                guard json["playable"] as? Bool == true else { return false }
                rungs = try #require(json["rung_progress"] as? [[String: Any]], "\(json)")
                let master = String(buffer: try await client.execute(uri: "/api/media/\(id)/stream", method: .get).body)
                variants = master.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.hasSuffix(".m3u8") }.map(String.init)
                return true
            }
            #expect(try await test.status(of: id) == .processing, "playable while the top rung still encodes")
            #expect(variants == ["stream/72p/index.m3u8"], "the master offers the rung that stays ahead: \(variants)")
            #expect(Dictionary(uniqueKeysWithValues: rungs.map { ($0["rung"] as? String ?? "", $0["listed"] as? Bool) })
                    == ["360p": false, "72p": true],
                    "the media JSON says which rungs the master lists: \(rungs)")
            let timeline = try await recorded
            try await waitUntil("media \(id) is ready", timeout: 60) { try await test.status(of: id) == .ready }
            #expect(timeline.joinedLater == ["360p"], "\(timeline.summary)")
            timeline.expectNoStall(in: ["360p", "72p"])
            let item = try #require(try await test.catalog.media(id: id))
            let master = URL(fileURLWithPath: try #require(item.hlsPath)).appendingPathComponent("master.m3u8")
            #expect(PublicationTimeline.renditions(named: try String(contentsOf: master, encoding: .utf8)) == ["360p", "72p"])
            #expect(HLSConformance.check(masterURL: master).violations.map(\.description) == [])
        }
    }

    @Test func aSplitTitleWithThreeWorkerProcessesOnPostgreSQLNeverKeepsAPlayerWaiting() async throws {
        let cluster = try await Cluster()
        defer { cluster.close() }
        let api = try await cluster.apiNode()
        let ladder = Self.ladder.map { "\($0.name):\($0.width)x\($0.height)@\($0.bitrate / 1000)k" }.joined(separator: ",")
        let workers = try (0..<3).map { _ in
            try cluster.worker(arguments: ["--ladder", ladder, "--preset", Self.preset,
                                           "--split-after", "20", "--chunk-seconds", "12"])
        }
        let clip = try await Self.clip(in: cluster.directory.url)
        #expect(try await UploadAnswer.send(clip, to: api.url).status == 201)
        let id = try #require(try await cluster.items().first?.id)
        let timeline = try await PublicationTimeline.record(id: id, catalog: cluster.catalog)
        try await waitUntil("media \(id) is ready", timeout: 30) { try await cluster.catalog.media(id: id)?.status == .ready }
        timeline.expectNoStall(in: ["540p", "360p", "audio_0"])
        for worker in workers { _ = try await worker.stop(SIGTERM) }
        _ = try await api.stop(SIGTERM)
    }
}
