import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing
@testable import VODServer
import VODTestSupport

/// `StreamFastPath` on an `EmbeddedChannel` with a real HTTP/1 pipeline: what it writes below the codec.
extension StreamFastPathFileTests {
    @Test func theHandlerWritesTheBodyAsAFileRegionBelowTheCodec() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let files = StreamFiles(catalog: test.library.catalog, segmentCacheSize: 0)
        _ = try await files.file(id: item.id, components: ["720p", "segment_001.ts"])
        let channel = try EmbeddedChannel.streamPipeline(StreamFastPath(files: files, metrics: ServiceMetrics(), serverName: "vod"))
        let target = "/api/media/\(item.id)/stream/720p/segment_001.ts"

        try channel.writeInbound(ByteBuffer(string: "GET \(target) HTTP/1.1\r\nHost: x\r\nRange: bytes=100-1099\r\n\r\n"))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "nothing reaches Hummingbird")
        guard case .byteBuffer(let head) = try #require(try channel.readOutbound(as: IOData.self)) else {
            Issue.record("no response head")
            return
        }
        let text = String(buffer: head)
        #expect(text.hasPrefix("HTTP/1.1 206 Partial Content\r\n"))
        #expect(text.contains("Content-Length: 1000\r\n") && text.contains("Content-Range: bytes 100-1099/5000\r\n"))
        guard case .fileRegion(let region) = try #require(try channel.readOutbound(as: IOData.self)) else {
            Issue.record("the body is not a file region")
            return
        }
        #expect(region.readerIndex == 100 && region.endIndex == 1100)
        #expect(!region.fileHandle.isOpen, "closed once written")
        while let rest = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let bytes) = rest { #expect(bytes.readableBytes == 0, "nothing after the body") }
        }

        // HEAD writes the head alone.
        try channel.writeInbound(ByteBuffer(string: "HEAD \(target) HTTP/1.1\r\nHost: x\r\n\r\n"))
        guard case .byteBuffer(let headOnly) = try #require(try channel.readOutbound(as: IOData.self)) else {
            Issue.record("no response head")
            return
        }
        #expect(String(buffer: headOnly).contains("Content-Length: 5000\r\n"))
        while let rest = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let bytes) = rest else {
                Issue.record("a body for HEAD")
                break
            }
            #expect(bytes.readableBytes == 0)
        }
        _ = try channel.finish()
    }

    @Test func aReadyTitlesSegmentHeldInTheCacheIsWrittenFromMemory() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let files = StreamFiles(catalog: test.library.catalog, segmentCacheSize: 1 << 20)
        let file = try await files.file(id: item.id, components: ["720p", "segment_001.ts"])
        guard case .disk(let path) = file.content else {
            Issue.record("the segment is not a file on disk")
            return
        }
        _ = try await files.segments.bytes(of: path, size: file.size)
        let channel = try EmbeddedChannel.streamPipeline(StreamFastPath(files: files, metrics: ServiceMetrics(), serverName: "vod"))

        try channel.writeInbound(ByteBuffer(string: "GET /api/media/\(item.id)/stream/720p/segment_001.ts HTTP/1.1\r\nHost: x\r\nRange: bytes=100-1099\r\n\r\n"))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "nothing reaches Hummingbird")
        var written: [UInt8] = []
        while let part = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let bytes) = part else {
                Issue.record("a file region, though the bytes are in memory")
                break
            }
            written += bytes.readableBytesView
        }
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 206 Partial Content\r\n") && text.contains("Content-Range: bytes 100-1099/5000\r\n"))
        #expect(Array(written.suffix(1000)) == Array(TestLibrary.segmentBytes.reversed()[100...1099]), "the range, from memory")
        _ = try channel.finish()
    }
}
