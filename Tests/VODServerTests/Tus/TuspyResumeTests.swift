import Foundation
import Testing
@testable import VODServer
import VODTestSupport

/// A real tus client against a real `vod serve`: tuspy uploads a clip in small chunks through connections cut
/// at random points and across a killed and restarted server, and the media item is the clip, byte for byte.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct TuspyResumeTests {
    @Test func tuspyResumesAfterCutConnectionsAndARestart() async throws {
        let test = try TestLibrary()
        let clipPath = try await SyntheticClip(width: 320, height: 240, duration: 6).make(in: test.directory.url)
        let clip = try Data(contentsOf: URL(fileURLWithPath: clipPath))
        var server = try ServerProcess(library: test, arguments: ["--workers", "0"])
        try await server.waitUntilListening()
        let seed = UInt64.random(in: 1...1_000_000)
        let client = try TuspyClient(
            file: clipPath, port: server.port, title: "Resumed clip", chunkSize: 16 * 1024, seed: seed,
            log: test.directory.url.appendingPathComponent("upload.py.log")
        )
        defer {
            client.stop()
            kill(server.serverPID, SIGKILL)
        }

        let restart = try await client.nextMessage()
        #expect(restart["event"] as? String == "restart", "seed \(seed)")
        let offset = try #require(restart["offset"] as? Int)
        #expect(offset >= clip.count / 2 && offset < clip.count)
        #expect(try await test.catalog.list(status: nil, limit: 10, offset: 0).isEmpty, "half an upload is no item")
        #expect(try await server.stop(SIGKILL) == SIGKILL)
        server = try ServerProcess(library: test, arguments: ["--workers", "0"])
        try await server.waitUntilListening()
        try client.send(port: server.port)

        let report = try await client.nextMessage()
        #expect(report["offset_before_restart"] as? Int == offset)
        #expect(report["offset_after_restart"] as? Int == offset, "the offset survived the restart, seed \(seed)")
        #expect(try #require(report["cuts"] as? Int) >= 2, "connections were cut, seed \(seed): \(report)")
        #expect(report["size"] as? Int == clip.count)

        let mediaID = try #require((report["media_id"] as? String).flatMap { Int64($0) }, "\(report)")
        let items = try await test.catalog.list(status: nil, limit: 10, offset: 0)
        #expect(items.map(\.id) == [mediaID], "exactly one item: no partial upload became one")
        let item = try #require(items.first)
        #expect(item.title == "Resumed clip")
        #expect(item.sourceFileName == "clip.mp4")
        let stored = try Data(contentsOf: URL(fileURLWithPath: item.sourcePath))
        #expect(try await TusWire.sha1(Array(stored)) == TusWire.sha1(Array(clip)), "seed \(seed)")
        #expect(stored.count == clip.count)
    }
}
