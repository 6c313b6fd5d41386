import Foundation
import Testing
import VODEngine
import VODTestSupport

/// A rendition's segments read as one MPEG-TS stream: each starts with its PAT and PMT and a picture that
/// carries the clock, and every stream's continuity counter runs on from one file into the next. When each
/// segment restarted its counters, FFmpeg's HLS demuxer marked the last picture of every segment corrupt.
@Suite("Segment continuity", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct SegmentContinuityTests {
    @Test func continuityCountersRunOnAcrossTheSegmentsOfEveryRendition() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.multiTrack([ToneTrack(frequency: 440, metadata: ["language=eng"]),
                                                 ToneTrack(frequency: 600, metadata: ["language=fre"])],
                                                duration: 14, in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let options = TranscodeOptions(ladder: [Rung(name: "240p", width: 426, height: 240, bitrate: 300_000)], preset: "superfast", shortSegments: 1)
        _ = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path)

        for rendition in ["240p", "audio_0", "audio_1"] {
            let playlist = output.appendingPathComponent("\(rendition)/index.m3u8")
            let files = try SplitTitleTests.segments(playlist).map { output.appendingPathComponent("\(rendition)/\($0.name)") }
            #expect(files.count == 3, "\(rendition): \(files.count) segments")
            for file in files {
                let packets = try TransportPackets(Data(contentsOf: file))
                #expect(Array(packets.pids.prefix(3)) == [0x11, 0x00, 0x1000], "\(file.lastPathComponent) opens with SDT, PAT and PMT")
                if rendition == "240p" {
                    let firstPicture = try #require(packets.all.first { $0.pid == 0x100 })
                    #expect(firstPicture.startsUnit && firstPicture.hasClock, "\(rendition)/\(file.lastPathComponent): the first picture carries a PCR")
                }
            }
            #expect(try TransportPackets.discontinuities(files) == [], "\(rendition)")
            let warnings = try await ExternalTool.require("ffmpeg", ["-v", "warning", "-i", playlist.path, "-f", "null", "-"]).standardError
            #expect(warnings.isEmpty, "\(rendition): \(warnings)")
        }
    }
}

/// The 188-byte packets of an MPEG-TS file: PID, continuity counter, whether a unit starts and whether a PCR
/// is carried.
struct TransportPackets {
    struct Packet {
        let pid: Int
        let counter: Int
        let startsUnit: Bool
        let hasClock: Bool
    }

    let all: [Packet]

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        all = try stride(from: 0, to: bytes.count, by: 188).map { offset in
            let packet = bytes[offset..<min(offset + 188, bytes.count)]
            let header = Array(packet.prefix(6))
            try #require(header.count == 6 && header[0] == 0x47, "a packet at \(offset) has no sync byte")
            let adaptation = (header[3] >> 4) & 0x2 != 0
            return Packet(pid: Int(header[1] & 0x1F) << 8 | Int(header[2]), counter: Int(header[3] & 0x0F),
                          startsUnit: header[1] & 0x40 != 0, hasClock: adaptation && header[4] > 0 && header[5] & 0x10 != 0)
        }
    }

    var pids: [Int] { all.map(\.pid) }
    var firstCounters: [Int: Int] { Dictionary(all.map { ($0.pid, $0.counter) }, uniquingKeysWith: { first, _ in first }) }
    var lastCounters: [Int: Int] { Dictionary(all.map { ($0.pid, $0.counter) }, uniquingKeysWith: { _, last in last }) }

    /// Where a PID's continuity counter does not go on by one from a file to the next of `files`, a rendition's
    /// segments in order: "file: PID p goes from a to b" for each.
    static func discontinuities(_ files: [URL]) throws -> [String] {
        var last: [Int: Int] = [:]
        var found: [String] = []
        for file in files {
            let packets = try TransportPackets(Data(contentsOf: file))
            for (pid, counter) in packets.firstCounters.sorted(by: { $0.key < $1.key }) {
                if let previous = last[pid], counter != (previous + 1) % 16 {
                    found.append("\(file.lastPathComponent): PID \(pid) goes from \(previous) to \(counter)")
                }
            }
            last.merge(packets.lastCounters) { $1 }
        }
        return found
    }
}
