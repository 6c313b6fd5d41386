import Foundation
import NIOCore
import NIOEmbedded
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
        let channel = try EmbeddedChannel.rawStreamPipeline(files: files, metrics: metrics)
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

    /// A segment on disk: its head built once, its body a region of the file opened now, even while the segment
    /// cache holds its bytes; a file renamed over since its lookup goes through the codec, which answers with the
    /// new file.
    @Test func aSegmentIsAnsweredBelowTheCodecFromItsFile() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let segment = "\(test.library.outputFolder(for: item.id))/720p/segment_000.ts"
        for cached in [false, true] {
            let files = StreamFiles(catalog: test.library.catalog, segmentCacheSize: cached ? 1 << 20 : 0)
            let file = try await files.file(id: item.id, components: ["720p", "segment_000.ts"])
            if cached { _ = try await files.segments.bytes(of: segment, size: file.size) }
            let metrics = ServiceMetrics()
            let channel = try EmbeddedChannel.rawStreamPipeline(files: files, metrics: metrics)
            /// The answer's bytes but for `Date`, and the lengths of the file regions sent after them.
            func send(_ bytes: [UInt8]) throws -> (text: String, regions: [Int]) {
                try channel.writeInbound(ByteBuffer(bytes: bytes))
                var (text, regions) = ("", [Int]())
                while let part = try channel.readOutbound(as: IOData.self) {
                    switch part {
                    case .byteBuffer(let buffer): text += String(decoding: buffer.readableBytesView, as: Unicode.ASCII.self)
                    case .fileRegion(let region): regions.append(region.readableBytes)
                    }
                }
                return (text.split(separator: "\r\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Date: ") }
                    .joined(separator: "\r\n"), regions)
            }
            func counted(_ name: String) -> Double? {
                var exposition: [UInt8] = []
                metrics.registry.emit(into: &exposition)
                return try? Exposition(String(decoding: exposition, as: UTF8.self))[name]
            }
            let get = RawHTTP.head("GET", "/api/media/\(item.id)/stream/720p/segment_000.ts")

            let first = try send(get)
            let firstHead = String(first.text.prefix(upTo: first.text.range(of: "\r\n\r\n")!.upperBound))
            let second = try send(get)
            #expect(counted("vod_stream_answers_below_codec_total") == 1, "the second, once the decoder is at a request's end")
            #expect(second.text == firstHead && second.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(second.text.contains("Content-Length: \(TestLibrary.segmentBytes.count)\r\n"))
            #expect(second.regions == [TestLibrary.segmentBytes.count] && second.text.hasSuffix("\r\n\r\n"), "the whole file")
            #expect(first.regions.isEmpty == cached && (first.text.count > firstHead.count) == cached,
                    "through the codec, the cache's bytes when it holds them")
            #expect(counted("vod_segments_sent_from_file_total") == (cached ? 1 : 2))
            let head = try send(RawHTTP.head("HEAD", "/api/media/\(item.id)/stream/720p/segment_000.ts"))
            #expect(counted("vod_stream_answers_below_codec_total") == 2)
            #expect(head.regions.isEmpty && head.text == firstHead)
            if !cached {
                // A file renamed over the segment (which a ready title's never is): the lookup's ETag no longer holds.
                let replacement = segment + ".new"
                try Data(TestLibrary.segmentBytes.prefix(1000)).write(to: URL(fileURLWithPath: replacement))
                #expect(rename(replacement, segment) == 0)
                let renamed = try send(get)
                #expect(counted("vod_stream_answers_below_codec_total") == 2, "through the codec")
                #expect(renamed.regions == [1000] && renamed.text.contains("Content-Length: 1000\r\n"))
                try Data(TestLibrary.segmentBytes).write(to: URL(fileURLWithPath: segment))
            }
            _ = try channel.finish()
        }
    }
}
