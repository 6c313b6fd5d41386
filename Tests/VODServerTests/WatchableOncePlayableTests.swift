import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODEngine
import VODServer
import VODService
import VODTestSupport

/// Playable means watchable: from the moment a split title says it is playable, every rendition lists segment k
/// no later than a player that started then, playing at 1×, needs it. The clip is sized so that its encoding
/// runs near real time on this machine, where publishing a whole chunk at a time kept players waiting.
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
