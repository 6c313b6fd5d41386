import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODConformance
import VODModel
import VODServer
import VODService
import VODTestSupport

/// A long upload is split into chunks in the queue: the worker that holds the title takes them with any other
/// worker, the title is playable from its first chunk, a chunk whose worker died is retried alone, and a chunk
/// that fails for good fails its title with the reason.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct SplitTitleServiceTests {
    /// A server with one in-process worker that splits titles longer than 20 s into 12 s chunks, with a 3 s lease.
    static func app(_ test: TestLibrary) -> some ApplicationProtocol {
        test.app { configuration in
            configuration.workers = 1
            configuration.pollInterval = 0.1
            configuration.lease = .seconds(3)
            configuration.split = SplitPolicy(after: 20, chunkSeconds: 12)
            configuration.transcodeOptions.preset = "superfast"
            // The test's own connection waits, idle, while the title transcodes (the server's default is 30 s).
            configuration.idleTimeout = .seconds(600)
        }
    }

    /// Uploads a 62 s clip to `server`, then claims one of its chunks as a worker of the test's own would, under
    /// `lease`, once the server's worker has taken the first two (the first segment, then 12 s): the worker that
    /// will stop or fail. Until a dead worker's chunk is retried, the publication cannot grow past it; with the
    /// first two chunks out, the title has grown at a pace that makes it playable before then.
    static func uploadAndTakeAChunk(_ test: TestLibrary, server: String, lease: Duration) async throws -> (id: Int64, chunk: ChunkLease) {
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 62).make(in: test.directory.url)
        let id = try await test.curlUpload(clip, title: "Long", to: server)
        try await waitUntil("the server's worker has taken the first two chunks") {
            let chunks = try await test.catalog.chunks(of: id)
            return chunks.count > 2 && chunks.prefix(2).allSatisfy { $0.status != .pending }
        }
        let ghost = try await test.catalog.claimNextChunk(worker: "ghost", lease: lease, mediaID: id)
        #expect(ghost.map(\.chunk.index) ?? 0 > 1)
        return (id, try #require(ghost))
    }

    @Test func aLongUploadIsPlayableFromItsFirstChunkAndAChunkWhoseWorkerDiedIsRetriedAlone() async throws {
        let test = try TestLibrary()
        try await Self.app(test).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let (id, stalled) = try await Self.uploadAndTakeAChunk(test, server: server, lease: .seconds(2))
            // The most attempts each chunk was seen with, until the title is done and its chunks are removed: six
            // chunks of 180p, which makes the title playable, then six of 240p, which joins the master later.
            var attempts = [Int](repeating: 0, count: 12)
            try await waitUntil("media \(id) is playable", timeout: 60) {
                for chunk in try await test.catalog.chunks(of: id) { attempts[chunk.index] = max(attempts[chunk.index], chunk.attempts) }
                let item = try #require(try await test.catalog.media(id: id))
                return item.isPlayable || item.status == .failed
            }
            #expect(try await test.status(of: id) == .processing)
            try await waitUntil("media \(id) is ready or failed", timeout: 120) {
                for chunk in try await test.catalog.chunks(of: id) { attempts[chunk.index] = max(attempts[chunk.index], chunk.attempts) }
                return [.ready, .failed].contains(try await test.status(of: id))
            }
            let item = try #require(try await test.catalog.media(id: id))
            #expect(item.status == .ready, "\(item.error ?? "")")
            // Ready means every chunk was done, so tried at least once.
            #expect(attempts[stalled.chunk.index] == 2
                    && attempts.enumerated().allSatisfy { $0.offset == stalled.chunk.index || $0.element <= 1 },
                    "the chunk whose worker stopped was tried again, and only it: \(attempts)")
            #expect(try await test.catalog.markChunkDone(stalled) == false, "the late worker's chunk is fenced off")
            #expect(try await test.catalog.chunks(of: id).isEmpty)

            let folder = URL(fileURLWithPath: try #require(item.hlsPath))
            let report = HLSConformance.check(masterURL: folder.appendingPathComponent("master.m3u8"))
            #expect(report.violations.map(\.description) == [])
            let master = try String(contentsOf: folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
            #expect(master.contains("#EXT-X-MEDIA:TYPE=AUDIO"), "the sound is one rendition, encoded once")
            let media = try JSONDecoder().decode(Media.self, from: Data(buffer: try await client.execute(uri: "/api/media/\(id)", method: .get).body))
            let loudness = try #require(media.tracks?.first { $0.type == "audio" }?.loudness, "the track pass measured the sound")
            let source = try await EBUR128.measure(item.sourcePath)
            #expect(abs(loudness.integrated - source.integrated) <= 1 && abs(loudness.truePeak - source.truePeak) <= 1,
                    "the media JSON's loudness \(loudness) is Debian's ffmpeg's on the source: \(source)")
            let segments = try String(contentsOf: folder.appendingPathComponent("240p/index.m3u8"), encoding: .utf8)
                .components(separatedBy: "#EXTINF:").count - 1
            #expect(segments == 14, "62 s: five 2 s segments, eight of 6 s, and one of 4 s to the sound's end (62.02 s)")
            let frames = try await ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                "stream=nb_read_frames", "-of", "csv=p=0", "\(server)/api/media/\(id)/stream"])
            let count = frames.standardOutput.split(whereSeparator: { !$0.isNumber }).first.flatMap { Int($0) }
            #expect(count == Int((try #require(item.duration) * 30).rounded()) && count ?? 0 >= 1860,
                    "every picture of the 62 s source, on the player's way through the master: \(frames.standardOutput)")
        }
    }

    /// A chunk waits while an earlier chunk of its title is being encoded by another worker on the same machine,
    /// so that the chunk players wait for gets the CPU; an earlier chunk held on another machine is not waited for.
    @Test(arguments: [true, false])
    func aLaterChunkWaitsForAnEarlierOneEncodedOnTheSameMachine(sameMachine: Bool) async throws {
        let test = try TestLibrary()
        try await Self.app(test).test(.live) { client in
            let clip = try await SyntheticClip(width: 320, height: 240, duration: 62).make(in: test.directory.url)
            let id = try await test.curlUpload(clip, title: "Long", to: "http://127.0.0.1:\(try #require(client.port))")
            try await waitUntil("the server's worker has taken the first chunk") {
                try await test.catalog.chunks(of: id).first.map { $0.status != .pending } ?? false
            }
            let host = sameMachine ? ProcessInfo.processInfo.hostName : "elsewhere.example"
            let held = try #require(try await test.catalog.claimNextChunk(worker: "\(host):1:ghost#0", lease: .seconds(60), mediaID: id))
            let later = held.chunk.index + 1
            try await waitUntil("the server's worker has taken chunk \(later)") {
                try await test.catalog.chunks(of: id)[later].status != .pending
            }
            if sameMachine {
                // Encoding one 12 s chunk at this size takes well under a second on an idle machine.
                try await Task.sleep(for: .seconds(3))
                #expect(try await test.catalog.chunks(of: id)[later].status == .processing,
                        "chunk \(later) waits while chunk \(held.chunk.index) is held on this machine")
            } else {
                try await waitUntil("chunk \(later) is done while chunk \(held.chunk.index) is held on another machine", timeout: 60) {
                    try await test.catalog.chunks(of: id)[later].status == .done
                }
            }
            try await test.catalog.requeueChunk(held)
            try await waitUntil("media \(id) is ready or failed") { [.ready, .failed].contains(try await test.status(of: id)) }
            #expect(try await test.status(of: id) == .ready)
        }
    }

    @Test func aChunkThatFailsForGoodFailsItsTitleWithTheReason() async throws {
        let test = try TestLibrary()
        try await Self.app(test).test(.live) { client in
            let (id, failing) = try await Self.uploadAndTakeAChunk(test, server: "http://127.0.0.1:\(try #require(client.port))",
                                                                    lease: .seconds(30))
            #expect(try await test.catalog.markChunkFailed(failing, reason: "the disk is full", maxAttempts: 1) == .failed)
            try await waitUntil("media \(id) fails") { try await test.status(of: id) == .failed }
            let item = try #require(try await test.catalog.media(id: id))
            #expect(item.error == "Transcoding failed: chunk \(failing.chunk.index + 1) of 12 failed: the disk is full", "\(item.error ?? "")")
            #expect(item.hlsPath == nil)
            let stream = try await client.execute(uri: "/api/media/\(id)/stream", method: .get)
            #expect(stream.status == .notFound, "a failed title's partial stream is gone")
        }
    }
}
