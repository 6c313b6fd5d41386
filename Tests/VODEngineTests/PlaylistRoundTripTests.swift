import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODTestSupport

/// Property tests of the playlist writer against the conformance parser, an independent reader: random
/// renditions (segment counts, durations, sizes, I-frame ranges, rung names, frame rates) are written and
/// read back with no issues and the same content.
@Suite(.timeLimit(.minutes(2))) struct PlaylistRoundTripTests {
    static func randomRenditions(_ generator: inout SeededGenerator) -> [Rendition] {
        (0..<Int.random(in: 1...4, using: &generator)).map { index in
            let name = generator.string(from: Array("abcpk0123456789_-"), count: Int.random(in: 1...12, using: &generator)) + "\(index)"
            var start = 0.0
            let segments = (0..<Int.random(in: 1...60, using: &generator)).map { number in
                let duration = (Double.random(in: 0.001...12.5, using: &generator) * PlaylistWriter.durationPrecision).rounded()
                    / PlaylistWriter.durationPrecision
                defer { start += duration }
                return Segment(
                    fileName: String(format: "segment_%03d.ts", number), start: start, duration: duration,
                    bytes: Int64.random(in: 188...40_000_000, using: &generator)
                )
            }
            let iFrames = segments.indices.flatMap { segment in
                (0..<Int.random(in: 0...3, using: &generator)).map { frame in
                    IFrame(
                        segmentIndex: segment, offset: Int64(frame) * 376 + Int64.random(in: 0...10_000, using: &generator),
                        length: Int64.random(in: 188...500_000, using: &generator), time: segments[segment].start,
                        duration: Double(Int.random(in: 1...600_000, using: &generator)) / PlaylistWriter.durationPrecision
                    )
                }
            }
            return Rendition(
                rung: PlannedRung(
                    name: name, width: 2 * Int.random(in: 1...2048, using: &generator), height: 2 * Int.random(in: 1...2048, using: &generator),
                    bitrate: Int.random(in: 1...50_000_000, using: &generator)
                ),
                segments: segments, iFrames: iFrames, videoCodec: "avc1.6400\(["1f", "28", "33"].randomElement(using: &generator)!)",
                audioCodec: Bool.random(using: &generator) ? "mp4a.40.2" : nil, frameRate: Double.random(in: 1...60, using: &generator)
            )
        }
    }

    static func parse(_ text: String) throws -> HLSPlaylist {
        let playlist = try HLSPlaylist.parse(Data(text.utf8))
        #expect(playlist.issues.isEmpty, "\(playlist.issues)")
        return playlist
    }

    @Test func writtenPlaylistsReadBackTheSame() throws {
        var generator = FuzzRun.generator(seed: 0x9_1A71_157)
        for _ in 0..<FuzzRun.cases(800) {
            let renditions = Self.randomRenditions(&generator)
            let targetDuration = PlaylistWriter.targetDuration(of: renditions)
            for rendition in renditions {
                guard case .media(let media) = try Self.parse(PlaylistWriter.media(rendition.segments, targetDuration: targetDuration)) else {
                    Issue.record("the media playlist read as a master")
                    continue
                }
                #expect(media.targetDuration == targetDuration)
                #expect(media.endListCount == 1)
                #expect(media.segments.map(\.uri) == rendition.segments.map(\.fileName))
                #expect(
                    zip(media.segments, rendition.segments).allSatisfy { abs($0.duration - $1.duration) < 1e-9 },
                    "durations are kept at the written precision"
                )
                #expect(media.segments.allSatisfy { Int(($0.duration + 0.5).rounded(.down)) <= targetDuration })
                guard case .media(let iFrames) = try Self.parse(PlaylistWriter.iFrames(rendition)) else {
                    Issue.record("the I-frame playlist read as a master")
                    continue
                }
                #expect(iFrames.iFramesOnly)
                #expect(iFrames.segments.map { $0.byteRange?.offset } == rendition.iFrames.map { Int($0.offset) })
                #expect(iFrames.segments.map { $0.byteRange?.length } == rendition.iFrames.map { Int($0.length) })
                #expect(iFrames.segments.map(\.uri) == rendition.iFrames.map { rendition.segments[$0.segmentIndex].fileName })
            }
            guard case .master(let master) = try Self.parse(PlaylistWriter.master(renditions, audio: [], targetDuration: targetDuration)) else {
                Issue.record("the master read as a media playlist")
                continue
            }
            #expect(master.variants.count == renditions.count)
            #expect(master.iFrameStreams.count == renditions.count)
            let bandwidths = master.variants.compactMap(\.bandwidth)
            #expect(bandwidths == bandwidths.sorted(), "ascending bandwidth")
            for variant in master.variants {
                let rendition = try #require(renditions.first { "\($0.rung.name)/index.m3u8" == variant.uri })
                #expect(variant.bandwidth == Bandwidth.peak(of: rendition.segmentPieces, targetDuration: targetDuration))
                #expect(variant.averageBandwidth == Bandwidth.average(of: rendition.segmentPieces))
                #expect(variant.resolution == Resolution(width: rendition.rung.width, height: rendition.rung.height))
                #expect(variant.codecs == [rendition.videoCodec, rendition.audioCodec].compactMap { $0 })
                #expect(abs((variant.frameRate ?? 0) - rendition.frameRate) < 0.0005 + 1e-9)
            }
        }
    }
    /// The first variant is where many players start: the H.264 SDR rungs come first, in ascending bandwidth, and
    /// an HEVC or HDR rung after them however few bits it needs (a PQ rung that needed fewer than the smallest SDR
    /// rung came first, and a player without HDR began with its washed-out picture).
    @Test func theMasterListsTheH264SDRRungsFirst() throws {
        func rendition(_ name: String, bytes: Int64, codec: VideoCodec = .h264, range: DynamicRange? = nil, videoCodec: String) -> Rendition {
            Rendition(rung: PlannedRung(name: name, width: 1280, height: 720, bitrate: 800_000, codec: codec, dynamicRange: range),
                      segments: [Segment(fileName: "segment_000.ts", start: 0, duration: 2, bytes: bytes)],
                      iFrames: [IFrame(segmentIndex: 0, offset: 0, length: bytes / 10, time: 0, duration: 2)],
                      videoCodec: videoCodec, audioCodec: nil, frameRate: 30)
        }
        let renditions = [
            rendition("720p", bytes: 200_000, videoCodec: "avc1.64001f"),
            rendition("720p-hdr", bytes: 120_000, codec: .hevc, range: .pq, videoCodec: "hvc1.2.4.L93.90"),
            rendition("360p", bytes: 100_000, videoCodec: "avc1.64001e"),
            rendition("720p-hevc", bytes: 110_000, codec: .hevc, videoCodec: "hvc1.1.6.L93.90"),
        ]
        guard case .master(let master) = try Self.parse(PlaylistWriter.master(renditions, audio: [], targetDuration: 2)) else {
            Issue.record("the master read as a media playlist")
            return
        }
        #expect(master.variants.map(\.uri) == ["360p/index.m3u8", "720p/index.m3u8", "720p-hevc/index.m3u8", "720p-hdr/index.m3u8"])
        #expect(master.iFrameStreams.map(\.uri) == ["360p/iframes.m3u8", "720p/iframes.m3u8", "720p-hevc/iframes.m3u8", "720p-hdr/iframes.m3u8"])
    }
}
