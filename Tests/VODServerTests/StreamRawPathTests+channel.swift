import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import VODServer
import VODTestSupport

extension StreamRawPathTests {
    /// In the real order of handlers (the reader before the HTTP/1 codec, `StreamFastPath` after it), without the
    /// clock: which reads are answered below the codec, and that their bytes are the codec's but for `Date`.
    @Test func aChannelAnswersBelowTheCodecExactlyWhenNothingIsInProgress() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let files = StreamFiles(catalog: test.library.catalog, segmentCacheSize: 0)
        _ = try await files.file(id: item.id, components: ["720p", "index.m3u8"])
        let metrics = ServiceMetrics()
        let fastPath = StreamFastPath(files: files, metrics: metrics, serverName: "vod")
        let channel = try EmbeddedChannel.streamPipeline(fastPath)
        let encoder = try channel.pipeline.syncOperations.handler(type: HTTPResponseEncoder.self)
        try channel.pipeline.syncOperations.addHandler(
            StreamRawPath(files: files, metrics: metrics, serverName: "vod", idleTimeout: nil, fastPath: fastPath),
            position: .before(encoder))
        let playlist = "/api/media/\(item.id)/stream/720p/index.m3u8"
        func send(_ bytes: [UInt8]) throws -> String {
            try channel.writeInbound(ByteBuffer(bytes: bytes))
            var answer = ""
            while let part = try channel.readOutbound(as: IOData.self) {
                guard case .byteBuffer(let buffer) = part else { continue }
                answer += String(buffer: buffer)
            }
            return answer.split(separator: "\r\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Date: ") }.joined(separator: "\r\n")
        }
        var below: Double? {
            var exposition: [UInt8] = []
            metrics.registry.emit(into: &exposition)
            return try? Exposition(String(decoding: exposition, as: UTF8.self))["vod_stream_answers_below_codec_total"]
        }
        let get = RawHTTP.head("GET", playlist)

        let first = try send(get)
        #expect(below == 0, "the first read only tells the reader that the decoder is at a request's end")
        #expect(try send(get) == first && below == 1, "answered below the codec, with the codec's bytes")
        let gzip = RawHTTP.head("GET", playlist, ["Accept-Encoding: gzip"])
        let gzipBelow = try send(gzip)
        #expect(below == 2 && gzipBelow.contains("Content-Encoding: gzip"))
        let head = try send(RawHTTP.head("HEAD", playlist))
        #expect(below == 3 && head == String(first.prefix(upTo: first.range(of: "\r\n\r\n")!.upperBound)), "HEAD: the GET's head alone")
        // Half a request, then its rest: both through the decoder, which may hold part of a request meanwhile.
        #expect(try send(Array(get.prefix(20))).isEmpty)
        #expect(try send(Array(get.dropFirst(20))) == first && below == 3)
        #expect(try send(get) == first && below == 4, "the decoder is at a request's end again")
        _ = try channel.finish()
    }
}
