import Foundation
import Hummingbird
import NIOCore
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// The memory cache of segments: what it holds, what it evicts first, what it refuses, and that a response
/// from memory is the same as one streamed from disk.
@Suite(.timeLimit(.minutes(2))) struct SegmentCacheTests {
    /// A folder with `count` files of `size` bytes each, every file's bytes distinct.
    static func files(_ count: Int, size: Int) throws -> (TemporaryDirectory, [String]) {
        let directory = try TemporaryDirectory()
        let paths = try (0..<count).map { index in
            let path = directory.url.appendingPathComponent("segment_\(index).ts").path
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }).write(to: URL(fileURLWithPath: path))
            return path
        }
        return (directory, paths)
    }

    @Test func aCachedSegmentIsServedFromMemoryOnceRead() async throws {
        let (directory, paths) = try Self.files(1, size: 4000)
        let cache = SegmentCache(capacity: 1 << 20)
        let expected = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
        let first = try #require(try await cache.bytes(of: paths[0], size: 4000))
        #expect(Data(first.readableBytesView) == expected)
        try FileManager.default.removeItem(atPath: paths[0])
        let second = try #require(try await cache.bytes(of: paths[0], size: 4000))
        #expect(Data(second.readableBytesView) == expected, "no second read: the file is gone from disk")
        #expect(cache.size == 4000)
        _ = directory
    }

    @Test func theLeastRecentlyUsedSegmentIsEvictedFirstAndTheBudgetHolds() async throws {
        let (directory, paths) = try Self.files(3, size: 4000)
        let cache = SegmentCache(capacity: 10_000)
        _ = try await cache.bytes(of: paths[0], size: 4000)
        _ = try await cache.bytes(of: paths[1], size: 4000)
        _ = try await cache.bytes(of: paths[0], size: 4000)
        _ = try await cache.bytes(of: paths[2], size: 4000)
        #expect(cache.size == 8000, "two of three files fit in 10,000 bytes")
        for path in paths { try FileManager.default.removeItem(atPath: path) }
        #expect(try await cache.bytes(of: paths[0], size: 4000) != nil, "used most recently but one: kept")
        #expect(try await cache.bytes(of: paths[2], size: 4000) != nil, "the newest: kept")
        await #expect(throws: HTTPError.self, "the least recently used was evicted and is read again") {
            try await cache.bytes(of: paths[1], size: 4000)
        }
        _ = directory
    }

    @Test func filesLargerThanTheLimitAndAnEmptyBudgetAreNotCached() async throws {
        let (directory, paths) = try Self.files(1, size: 4000)
        #expect(try await SegmentCache(capacity: 1 << 20, maximumFileSize: 3999).bytes(of: paths[0], size: 4000) == nil)
        #expect(try await SegmentCache(capacity: 0).bytes(of: paths[0], size: 4000) == nil)
        _ = directory
    }

    @Test func forgettingAFolderFreesItsSegmentsOnly() async throws {
        let (directory, paths) = try Self.files(2, size: 4000)
        let (otherDirectory, otherPaths) = try Self.files(1, size: 3000)
        let cache = SegmentCache(capacity: 1 << 20)
        for path in paths { _ = try await cache.bytes(of: path, size: 4000) }
        _ = try await cache.bytes(of: otherPaths[0], size: 3000)
        cache.forget(prefix: directory.url.path + "/")
        #expect(cache.size == 3000)
        _ = otherDirectory
    }

    @Test func aFileThatShrankSinceItWasLookedUpIsAnErrorNotShortContent() async throws {
        let (directory, paths) = try Self.files(1, size: 4000)
        let cache = SegmentCache(capacity: 1 << 20)
        await #expect(throws: IOError.self) { try await cache.bytes(of: paths[0], size: 5000) }
        #expect(cache.size == 0)
        _ = directory
    }

    @Test(arguments: [0, 256 << 20])
    func segmentsAndRangesAreTheSameBytesWithAndWithoutTheCache(cacheSize: Int) async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let bytes = TestLibrary.segmentBytes
        try await test.app { $0.segmentCacheSize = cacheSize }.test(.live) { client in
            let uri = "/api/media/\(item.id)/stream/720p/segment_000.ts"
            for _ in 0..<2 {
                let whole = try await client.execute(uri: uri, method: .get)
                #expect(whole.status == .ok)
                #expect(Array(whole.body.readableBytesView) == bytes)
                let range = try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=100-199"])
                #expect(range.status == .partialContent)
                #expect(Array(range.body.readableBytesView) == Array(bytes[100...199]))
            }
        }
    }
}
