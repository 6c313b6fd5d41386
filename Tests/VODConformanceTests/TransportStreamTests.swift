import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct TransportStreamTests {
    private func segmentBytes(_ path: String) throws -> [UInt8] {
        let title = try TestTitle.conformant.get()
        return [UInt8](try Data(contentsOf: title.url(path)))
    }

    @Test func readsProgramVideoAndAudioOfAnFFmpegSegment() throws {
        let segment = TransportStreamSegment(bytes: try segmentBytes("240p/segment_000.ts"))
        #expect(segment.problems == [])
        #expect(segment.startsWithProgramTables)
        #expect(segment.program?.streams.map(\.streamType) == [0x1B, 0x0F])
        let video = try #require(segment.video)
        #expect(video.startsWithIDR)
        #expect(video.parameterSetsBeforeFirstSlice)
        #expect(video.sps?.width == 320)
        #expect(video.sps?.height == 240)
        #expect(video.sps?.profileIDC == 100)
        // 6 s at 30 fps, an IDR every 60 frames, PTS starting at ffmpeg's 1.4 s offset plus B-frame delay.
        #expect(video.accessUnits.count == 180)
        #expect(video.frameDurationTicks == 3000)
        #expect(video.idrPTS.count == 3)
        #expect(zip(video.idrPTS.dropFirst(), video.idrPTS).allSatisfy { $0 - $1 == 180_000 })
        #expect(video.idrPTS.first == video.firstPTS)
        let audio = try #require(segment.audio.first)
        #expect(segment.audio.count == 1)
        #expect(audio.header?.objectType == 2)
        #expect(audio.header?.sampleRate == 48_000)
        #expect(audio.header?.channels == 2)
        #expect(audio.frameDurationTicks == 1920)
    }

    /// The PTS ffprobe reports for the same file: first and last picture, and the audio's end.
    @Test func timestampsMatchFFprobe() throws {
        let title = try TestTitle.conformant.get()
        let path = title.url("240p/segment_001.ts").path
        let csv = try run("ffprobe", ["-v", "error", "-show_entries", "packet=codec_type,pts,duration", "-of", "csv=p=0", path])
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let videoPTS = rows.filter { $0.first == "video" }.compactMap { Int64($0[1]) }
        let audioEnds = rows.filter { $0.first == "audio" }.compactMap { row in Int64(row[1]).flatMap { pts in Int64(row[2]).map { pts + $0 } } }
        let segment = TransportStreamSegment(bytes: try segmentBytes("240p/segment_001.ts"))
        #expect(segment.video?.firstPTS == videoPTS.min())
        #expect(segment.video?.lastPTS == videoPTS.max())
        #expect(segment.audio.first?.endPTS == audioEnds.max())
    }

    @Test func byteRangeUsesTheProgramOfTheFileStart() throws {
        let bytes = try segmentBytes("240p/segment_000.ts")
        let whole = TransportStreamSegment(bytes: bytes)
        let second = try #require(whole.video?.accessUnits.dropFirst().first)
        let third = try #require(whole.video?.accessUnits.dropFirst(2).first)
        let range = Array(bytes[second.byteOffset..<third.byteOffset])
        let alone = TransportStreamSegment(bytes: range)
        #expect(alone.video == nil)
        let known = TransportStreamSegment(bytes: range, knownProgram: whole.program)
        #expect(known.video?.accessUnits.count == 1)
        #expect(known.video?.accessUnits.first?.pts == second.pts)
        #expect(known.video?.startsWithIDR == false)
        #expect(!known.startsWithProgramTables)
    }

    @Test func noticesLostSyncAndPartialPackets() throws {
        var bytes = try segmentBytes("120p/segment_001.ts")
        bytes[188 * 40] = 0x00
        bytes.removeLast(100)
        let segment = TransportStreamSegment(bytes: bytes)
        #expect(segment.problems.contains { $0.contains("sync byte") })
        #expect(segment.problems.contains { $0.contains("whole number") })
    }

    /// Truncations and random byte edits of a real segment: analysis must return, never trap.
    @Test func mutatedSegmentsNeverCrash() throws {
        let original = Array(try segmentBytes("120p/segment_001.ts").prefix(188 * 120))
        var generator = SeededGenerator(seed: 0x75)
        for length in stride(from: 0, through: 188 * 6, by: 47) {
            _ = TransportStreamSegment(bytes: Array(original.prefix(length)))
        }
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let segment = TransportStreamSegment(bytes: bytes)
            _ = segment.video?.sps
        }
    }

    @Test func parsesADTSHeaderFields() throws {
        // AAC-LC (profile 1), 44.1 kHz (index 4), stereo, frame_length 371, one raw data block.
        let header = try ADTSHeader([0xFF, 0xF1, 0x50, 0x80, 0x2E, 0x7F, 0xFC][...])
        #expect(header.objectType == 2)
        #expect(header.sampleRate == 44_100)
        #expect(header.channels == 2)
        #expect(header.frameLength == 371)
        #expect(header.rawDataBlocks == 1)
        #expect(throws: ConformanceError.self) { try ADTSHeader([0xFF, 0xF1, 0x7C, 0x80][...]) }
        #expect(throws: ConformanceError.self) { try ADTSHeader([0xFF, 0xF1, 0x7C, 0x80, 0x2E, 0x7F, 0xFC][...]) }
    }
}
