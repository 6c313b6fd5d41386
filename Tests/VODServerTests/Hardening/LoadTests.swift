import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// Issue 4, part 6: sustained playlist and segment load while a transcode runs, and concurrent uploads.
@Suite(.serialized, .tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct LoadTests {
    @Test func sustainedStreamLoadWhileTranscodingHasNoErrorsAndBoundedMemory() async throws {
        let folders = try ServedFolders()
        let short = try await SyntheticClip(width: 320, height: 240, duration: 3).make(in: folders.directory.url, name: "short")
        let long = try await SyntheticClip(width: 320, height: 240, duration: 150).make(in: folders.directory.url, name: "long")
        let server = try await folders.serve()
        let ready = try #require(try await UploadAnswer.send(short, to: server.url).id)
        try await waitUntil("the short clip is ready", timeout: 60) { try await folders.catalog.media(id: ready)?.status == .ready }
        let busy = try #require(try await UploadAnswer.send(long, to: server.url).id)
        try await waitUntil("the long clip is transcoding", timeout: 30) {
            try await folders.catalog.media(id: busy)?.status == .processing
        }
        let before = residentMemory(of: server.serverPID)
        let script = folders.directory.url.appendingPathComponent("paths.lua")
        try Data("""
            local paths = { "/api/media/\(ready)/stream", "/api/media/\(ready)/stream/240p/index.m3u8",
                            "/api/media/\(ready)/stream/240p/segment_000.ts", "/api/media/\(ready)" }
            local n = 0
            request = function() n = n + 1; return wrk.format("GET", paths[n % #paths + 1]) end
            """.utf8).write(to: script)
        let load = try await ExternalTool.require("wrk", ["-t", "2", "-c", "32", "-d", "5s", "-s", script.path, server.url])
            .standardOutput
        let after = residentMemory(of: server.serverPID)
        #expect(try await folders.catalog.media(id: busy)?.status == .processing, "the load ran while the job did")
        #expect(!load.contains("Non-2xx"), "\(load)")
        #expect(!load.contains("Socket errors"), "\(load)")
        let requests = Int(load.split(separator: "\n").first { $0.contains("requests in") }?
            .split(separator: " ").first ?? "") ?? 0
        #expect(requests > 500, "\(load)")
        #expect(after - before < 64 << 20, "resident memory went from \(before >> 20) to \(after >> 20) MB under load")
        try await waitUntil("the long clip is ready", timeout: 240) { try await folders.catalog.media(id: busy)?.status == .ready }
        #expect(try await server.stop(SIGTERM) == 0)
        print("load: \(requests) requests in 5 s with 32 connections, 0 errors; memory \(before >> 20) → \(after >> 20) MB")
    }

    @Test func eightConcurrentUploadsAllLandIntact() async throws {
        let folders = try ServedFolders()
        let clip = try Data(contentsOf: URL(fileURLWithPath:
            try await SyntheticClip(width: 320, height: 240, duration: 1).with(container: "ts").make(in: folders.directory.url)))
        let files = try (0..<8).map { index in
            // Null TS packets after the clip, each upload's with its own payload and length.
            let packet = Data([0x47, 0x1F, 0xFF, 0x10]) + Data(repeating: UInt8(index), count: 184)
            let path = folders.directory.url.appendingPathComponent("upload-\(index).ts").path
            try (clip + Data((0..<(4000 + 500 * index)).flatMap { _ in packet })).write(to: URL(fileURLWithPath: path))
            return path
        }
        let server = try await folders.serve(["--workers", "0"])
        let answers = try await withThrowingTaskGroup(of: (String, UploadAnswer).self) { group in
            for file in files { group.addTask { (file, try await UploadAnswer.send(file, to: server.url)) } }
            return try await group.reduce(into: [String: UploadAnswer]()) { $0[$1.0] = $1.1 }
        }
        for file in files {
            let id = try #require(answers[file]?.id, "\(file): \(String(describing: answers[file]))")
            let stored = try #require(try await folders.catalog.media(id: id)?.sourcePath)
            #expect(try await sha256(stored) == sha256(file), "\(file) was stored intact")
        }
        #expect(try await folders.items().count == 8)
        #expect(try await server.stop(SIGTERM) == 0)
    }

    private func sha256(_ path: String) async throws -> String {
        String(try await ExternalTool.require("sha256sum", [path]).standardOutput.prefix(64))
    }
}
