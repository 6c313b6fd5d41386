import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// Property tests of the stream path resolver: random paths built from the characters traversal is made of,
/// thousands of them, against a folder full of traps. Whatever the path, the resolver either refuses it or
/// returns a file that is inside the item's folder; over HTTP the answer is 200 for those and 400/404 JSON
/// otherwise, and never a byte from outside.
@Suite(.timeLimit(.minutes(2))) struct StreamPathFuzzTests {
    static let pieces = [
        "..", ".", "", "720p", "segment_000.ts", "index.m3u8", "iframes.m3u8", "master.m3u8", "linked-rung", "escape.ts",
        "escape-dir", "absolute-rung", "%2e%2e", "%2f", "%252e", "%00", "\\", "..\\..", "/", "~", "a.ts", ".hidden.ts",
        "vod.sqlite", "passwd", "etc", "media", "hls_output", "2", "x.ts", "notes.txt", "é.ts", "%c0%ae",
    ]

    static func randomPath(_ generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...7, using: &generator)).map { _ in
            Int.random(in: 0..<5, using: &generator) == 0
                ? generator.string(from: Array("./\\%0a2eEfF_-x"), count: Int.random(in: 1...6, using: &generator))
                : pieces.randomElement(using: &generator)!
        }.joined(separator: "/")
    }

    @Test func theResolverNeverReturnsAFileOutsideTheItemsFolder() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let other = try await test.addReady(title: "other")
        try Traps.plant(test, item: item.id, other: other.id)
        let files = StreamFiles(catalog: test.catalog, segmentCacheSize: 1 << 20)
        let root = try #require(realpath(test.library.outputFolder(for: item.id), nil).map { String(cString: $0) })
        let ownPlaylists = [TestLibrary.variant, TestLibrary.iframes, TestLibrary.master].map { Array($0.utf8) }
        var generator = FuzzRun.generator(seed: 0x7A7E_5AFE)
        var served = 0
        for _ in 0..<FuzzRun.cases(5000) {
            let path = Self.randomPath(&generator)
            let components = path.split(separator: "/", omittingEmptySubsequences: true)
            do {
                let file = try await files.file(id: item.id, components: components)
                switch file.content {
                case .disk(let served): #expect(served.hasPrefix(root + "/"), "\(path) → \(served)")
                case .memory(let bytes, _): #expect(ownPlaylists.contains(Array(bytes.readableBytesView)), "\(path)")
                }
                served += 1
            } catch let error as APIError {
                #expect(error.status == .notFound, "\(path): \(error)")
            }
        }
        #expect(served > 0, "the generator reaches real files too")
    }

    @Test func randomPathsOverHTTPAreServedFromInsideOrRefusedAsJSON() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let other = try await test.addReady(title: "other")
        try Traps.plant(test, item: item.id, other: other.id)
        var generator = FuzzRun.generator(seed: 0x4E77_9A7B)
        let paths = (0..<FuzzRun.cases(1000)).map { _ in
            Self.randomPath(&generator).replacingOccurrences(of: "é", with: "%C3%A9").replacingOccurrences(of: "\\", with: "%5C")
        }
        try await test.app().test(.live) { client in
            let master = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get)
            let own = [TestLibrary.segmentBytes, TestLibrary.segmentBytes.reversed(), Array(master.body.readableBytesView)]
                + [TestLibrary.variant, TestLibrary.iframes, TestLibrary.master].map { Array($0.utf8) }
            for path in paths {
                let response = try await client.execute(uri: "/api/media/\(item.id)/stream/\(path)", method: .get)
                if response.status == .ok {
                    #expect(own.contains(Array(response.body.readableBytesView)), "\(path)")
                } else {
                    #expect([400, 404].contains(response.status.code), "\(path): \(response.status)")
                    #expect(response.body.text.hasPrefix(#"{"error":"#), "\(path)")
                }
                for secret in PathTraversalTests.forbidden { #expect(!response.body.text.contains(secret), "\(path)") }
            }
        }
    }
}
