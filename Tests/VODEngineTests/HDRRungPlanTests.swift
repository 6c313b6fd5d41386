import Foundation
import Testing
@testable import VODEngine

/// Which rung keeps a source's HDR, what it carries, and which decode feeds it: planning alone, no encode.
struct HDRRungPlanTests {
    @Test func theHDRRungIsTheLargestH264RungUpTo1080pInHEVCMain10() throws {
        let plan = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 3840, displayHeight: 2160)
        let levels = HDRLightLevels(masterDisplay: "G(1,2)B(3,4)R(5,6)WP(7,8)L(9,10)", maxCLL: "1000,400")
        let kept = LadderPlanner.withHDR(plan, keeping: .pq, lightLevels: levels)
        #expect(kept.map(\.name) == ["720p", "1080p", "4k", "1080p-hdr"])
        let hdr = kept[3]
        #expect((hdr.width, hdr.height, hdr.codec, hdr.dynamicRange, hdr.bitrate) == (1920, 1080, .hevc, .pq, 1_960_000))
        #expect(hdr.lightLevels == levels && hdr.videoRange == "PQ")
        #expect(LadderPlanner.withHDR(plan, keeping: nil) == plan)
        #expect(LadderPlanner.withHDR(plan, keeping: .dolbyVision) == plan, "a Dolby Vision source keeps its base layer's range")
        let roundTrip = try JSONDecoder().decode(PlannedRung.self, from: JSONEncoder().encode(hdr))
        #expect(roundTrip == hdr, "a chunk carries its HDR rung's range and light levels")
        let old = try JSONDecoder().decode(PlannedRung.self, from: Data(#"{"name":"720p","width":1280,"height":720,"bitrate":800000}"#.utf8))
        #expect(old.dynamicRange == nil && old.videoRange == "SDR", "a chunk queued before rungs had a range")
    }

    @Test func publicationAndPictureGroupsKeepTheHDRRungsApart() throws {
        let plan = LadderPlanner.withHDR(try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 1920, displayHeight: 1080),
                                         keeping: .hlg)
        #expect(TranscodeJob.pictureGroups(of: plan).map { $0.map(\.name) } == [["720p", "1080p"], ["1080p-hdr"]])
        #expect(TranscodeJob.publicationGroups(of: plan).map { $0.map(\.name) } == [["720p"], ["1080p"], ["1080p-hdr"]])
    }

    /// The `mdcv` and `clli` boxes of an HDR10 rung's sample entry: the SEI's order and units, big-endian.
    @Test func theLightLevelsBecomeMDCVAndCLLIBoxes() {
        let levels = HDRLightLevels(masterDisplay: "G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)",
                                    maxCLL: "1000,400")
        let mdcv: [UInt8] = [0, 0, 0, 32] + Array("mdcv".utf8) + [0x33, 0xC2, 0x86, 0xC4, 0x1D, 0x4C, 0x0B, 0xB8, 0x84, 0xD0, 0x3E, 0x80,
                                                             0x3D, 0x13, 0x40, 0x42, 0x00, 0x98, 0x96, 0x80, 0x00, 0x00, 0x00, 0x01]
        let clli: [UInt8] = [0, 0, 0, 12] + Array("clli".utf8) + [0x03, 0xE8, 0x01, 0x90]
        #expect(levels.sampleEntryBoxes == mdcv + clli)
        #expect(HDRLightLevels(masterDisplay: nil, maxCLL: "1000,400").sampleEntryBoxes == clli)
        #expect(HDRLightLevels(masterDisplay: "unreadable", maxCLL: nil).sampleEntryBoxes == [])
    }
}
