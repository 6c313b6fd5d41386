import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

/// HEVC SPS NAL units written by x265; the expected values are those ffmpeg's `trace_headers` bitstream filter and
/// ffprobe print for the same streams.
@Suite(.timeLimit(.minutes(2))) struct HEVCSequenceParameterSetTests {
    @Test func mainProfileWithoutColourDescription() throws {
        let sps = try SequenceParameterSet(hevcNALUnit: hex("42010101600000030090000003000003003ca00a080f165959a4932bc05a020000030002000003003210"))
        #expect(sps.coding == .hevc)
        #expect(sps.profileIDC == 1)
        #expect(sps.levelIDC == 60)
        #expect((sps.width, sps.height) == (320, 240))
        #expect(sps.chromaFormatIDC == 1)
        #expect((sps.bitDepthLuma, sps.bitDepthChroma) == (8, 8))
        #expect(sps.frameMBsOnly)
        #expect(sps.vuiFrameRate == 25)
        #expect(sps.colourPrimaries == nil)
        #expect(sps.codecString == "hvc1.1.6.L60.90")
        #expect(sps.levelAllows(frameRate: 25))
        #expect(!sps.levelAllows(frameRate: 60))
    }

    /// 1920×1080 is coded as 1920×1088 less a conformance window, and PQ in BT.2020 is tagged in the VUI.
    @Test func main10PQCropsItsConformanceWindow() throws {
        let sps = try SequenceParameterSet(hevcNALUnit: hex("420101022000000300900000030000030078a003c08010e4d96566924caf016a12201208000003000800000300f040"))
        #expect(sps.profileIDC == 2)
        #expect(sps.levelIDC == 120)
        #expect((sps.width, sps.height) == (1920, 1080))
        #expect((sps.bitDepthLuma, sps.bitDepthChroma) == (10, 10))
        #expect(sps.vuiFrameRate == 30)
        #expect(sps.colourPrimaries == 9)
        #expect(sps.transferCharacteristics == 16)
        #expect(sps.matrixCoefficients == 9)
        #expect(!sps.fullRange)
        #expect(sps.codecString == "hvc1.2.4.L120.90")
        #expect(sps.levelAllows(frameRate: 30))
        #expect(!sps.levelAllows(frameRate: 120))
    }

    /// Temporal sub-layers add per-layer fields to profile_tier_level and to the ordering information.
    @Test func subLayersAreSkipped() throws {
        let sps = try SequenceParameterSet(hevcNALUnit: hex("42010201600000030090000003000003003f0000a005020169659594acb24995e02d010000030001000003001e08"))
        #expect(sps.profileIDC == 1)
        #expect(sps.levelIDC == 63)
        #expect((sps.width, sps.height) == (640, 360))
        #expect(sps.vuiFrameRate == 30)
        #expect(sps.codecString == "hvc1.1.6.L63.90")
    }

    @Test func truncatedOrForeignNALUnitsThrow() throws {
        let full = hex("42010101600000030090000003000003003ca00a080f165959a4932bc05a020000030002000003003210")
        for length in 1..<20 {
            #expect(throws: ConformanceError.self) { try SequenceParameterSet(hevcNALUnit: Array(full.prefix(length))) }
        }
        #expect(throws: ConformanceError.self) { try SequenceParameterSet(hevcNALUnit: hex("67640028acd940780227e5c044")) }
        #expect(throws: ConformanceError.self) { try SequenceParameterSet(nalUnit: full) }
    }

    /// Every profile space, tier and trailing constraint byte takes its place in the codec string.
    @Test func codecStringFollowsAnnexE() {
        let main10High = HEVCProfile(space: 0, highTier: true, idc: 2, compatibility: 0x2000_0000, constraints: [0xB0, 0, 0, 0, 0, 0])
        #expect(main10High.codecString(level: 153) == "hvc1.2.4.H153.B0")
        let spaced = HEVCProfile(space: 1, highTier: false, idc: 4, compatibility: 0x0800_0001, constraints: [0x90, 0, 0x02, 0, 0, 0])
        #expect(spaced.codecString(level: 93) == "hvc1.A4.80000010.L93.90.0.2")
    }

    /// An fMP4 that ffmpeg muxes from x265 with the `hvc1` tag: the checker reads the SPS from its `hvcC`.
    @Test(.tags(.ffmpeg), .needsExternalTools) func fragmentedInitReadsTheHVCCParameterSets() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hevc.mp4")
        _ = try run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-frames:v", "4",
                               "-c:v", "libx265", "-x265-params", "log-level=none", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
                               "-movflags", "frag_keyframe+empty_moov", file.path])
        let initSegment = FragmentedInit(bytes: try [UInt8](Data(contentsOf: file)))
        let video = try #require(initSegment.tracks.first { $0.handler == "vide" })
        #expect(video.sampleEntry == "hvc1")
        #expect(video.isHEVC)
        #expect(video.hasPPS)
        #expect(video.nalLengthSize == 4)
        let sps = try #require(video.parsedSPS)
        #expect((sps.width, sps.height, sps.bitDepthLuma) == (640, 360, 10))
        #expect(sps.codecString == "hvc1.2.4.L63.90")
    }

    @Test func hevcNALUnitsTakeTheTypeOfTheirRole() {
        let types = [(UInt8(19), UInt8(5)), (20, 5), (21, 1), (1, 1), (32, 0), (33, 7), (34, 8), (35, 9), (39, 6), (40, 6)]
        for (hevc, h264) in types {
            #expect(NALUnit.h264Type(ofHEVC: hevc) == h264, "HEVC type \(hevc)")
        }
        let sample: [UInt8] = [0, 0, 0, 3, 0x40, 0x01, 0x0C, 0, 0, 0, 3, 0x26, 0x01, 0xAF]
        #expect(NALUnit.split(lengthPrefixed: sample[...], lengthSize: 4, hevc: true).map(\.type) == [0, 5])
    }
}
