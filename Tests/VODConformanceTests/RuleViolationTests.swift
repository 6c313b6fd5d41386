import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

/// Each test breaks one rule in a copy of the conformant title and shows the checker names that rule.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct RuleViolationTests {
    @Test func missingEndListIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXT-X-ENDLIST\n", with: "", in: "240p/index.m3u8")
        let report = title.check()
        #expect(report.violations(of: .mediaEndList).map(\.file) == ["240p/index.m3u8"])
    }

    @Test func secondEndListIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXT-X-ENDLIST\n", with: "#EXT-X-ENDLIST\n#EXT-X-ENDLIST\n", in: "120p/index.m3u8")
        #expect(title.brokenRules().contains(.mediaEndList))
    }

    @Test func eventPlaylistIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("PLAYLIST-TYPE:VOD", with: "PLAYLIST-TYPE:EVENT", in: "240p/index.m3u8")
        #expect(title.brokenRules() == [.mediaPlaylistType])
    }

    @Test func targetDurationBelowARoundedSegmentIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        for rung in ["240p", "120p"] {
            try title.replace("#EXT-X-TARGETDURATION:6", with: "#EXT-X-TARGETDURATION:5", in: "\(rung)/index.m3u8")
        }
        let report = title.check()
        #expect(report.brokenRules.contains(.mediaTargetDuration))
        #expect(report.violations(of: .mediaTargetDuration).count == 2)
    }

    /// floor(EXTINF + 0.5): 6.49 rounds to 6 and passes, 6.5 rounds to 7 (half up, not to even) and fails.
    @Test func targetDurationRoundsHalfUp() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXTINF:6.000000,", with: "#EXTINF:6.490000,", in: "240p/index.m3u8")
        #expect(!title.brokenRules().contains(.mediaTargetDuration))
        try title.replace("#EXTINF:6.490000,", with: "#EXTINF:6.500000,", in: "240p/index.m3u8")
        #expect(title.brokenRules().contains(.mediaTargetDuration))
    }

    @Test func decimalTargetDurationIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXT-X-TARGETDURATION:6", with: "#EXT-X-TARGETDURATION:6.0", in: "240p/index.m3u8")
        #expect(title.brokenRules().contains(.mediaTargetDuration))
    }

    @Test func targetDurationAboveTheProjectTargetIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        let report = title.check(options: ConformanceOptions(targetDuration: 4))
        #expect(report.violations(of: .mediaTargetLimit).count == 2)
    }

    @Test func versionTooLowForDecimalExtinfAndIFramesIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXT-X-VERSION:3", with: "#EXT-X-VERSION:2", in: "240p/index.m3u8")
        try title.replace("#EXT-X-VERSION:4", with: "#EXT-X-VERSION:3", in: "120p/iframes.m3u8")
        let files = Set(title.check().violations(of: .mediaVersion).map(\.file))
        #expect(files == ["240p/index.m3u8", "120p/iframes.m3u8"])
    }

    @Test func wrongCodecsAreCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("CODECS=\"avc1.64000d,mp4a.40.2\"", with: "CODECS=\"avc1.640028,mp4a.40.2\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.masterCodecs])
        #expect(report.violations.first?.message.contains("avc1.64000d") == true)
    }

    @Test func codecsWithoutTheAudioCodecAreCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("CODECS=\"avc1.64000b,mp4a.40.2\"", with: "CODECS=\"avc1.64000b\"", in: "master.m3u8")
        #expect(title.brokenRules() == [.masterCodecs])
    }

    @Test func bandwidthBelowThePeakIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try scaleBandwidth(of: "240p", in: title, by: 0.8)
        let violations = title.check().violations(of: .masterBandwidth)
        #expect(violations.count == 1)
        #expect(violations.first?.message.contains("below") == true)
    }

    @Test func bandwidthFarAboveThePeakIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try scaleBandwidth(of: "120p", in: title, by: 1.2)
        let violations = title.check().violations(of: .masterBandwidth)
        #expect(violations.first?.message.contains("10 %") == true)
    }

    @Test func averageBandwidthOffByTwentyPercentIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        let master = try title.text("master.m3u8")
        let average = try #require(master.firstMatch(of: /AVERAGE-BANDWIDTH=(\d+)/)?.1)
        try title.replace("AVERAGE-BANDWIDTH=\(average)", with: "AVERAGE-BANDWIDTH=\(Int(Double(average)! * 0.8))", in: "master.m3u8")
        #expect(title.brokenRules() == [.masterAverageBandwidth])
    }

    @Test func wrongResolutionIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("RESOLUTION=320x240,FRAME-RATE", with: "RESOLUTION=320x180,FRAME-RATE", in: "master.m3u8")
        #expect(title.brokenRules() == [.masterResolution])
    }

    @Test func wrongOrOverPreciseFrameRateIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("FRAME-RATE=30.000,CODECS=\"avc1.64000d", with: "FRAME-RATE=29.970,CODECS=\"avc1.64000d", in: "master.m3u8")
        try title.replace("FRAME-RATE=30.000,CODECS=\"avc1.64000b", with: "FRAME-RATE=30.0000,CODECS=\"avc1.64000b", in: "master.m3u8")
        let messages = title.check().violations(of: .masterFrameRate).map(\.message)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.contains("29.970 is not the encoded 30.000") })
        #expect(messages.contains { $0.contains("more than 3 decimals") })
    }

    @Test func missingIndependentSegmentsIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXT-X-INDEPENDENT-SEGMENTS\n", with: "", in: "master.m3u8")
        #expect(title.brokenRules() == [.masterIndependentSegments])
    }

    @Test func descendingVariantsAreCaught() throws {
        let title = try TestTitle.conformantCopy()
        let lines = try title.text("master.m3u8").split(separator: "\n").map(String.init)
        let reordered = Array(lines[0..<3]) + Array(lines[5..<7]) + Array(lines[3..<5]) + Array(lines[7...])
        try title.write(reordered.joined(separator: "\n") + "\n", to: "master.m3u8")
        #expect(title.brokenRules() == [.masterVariantOrder])
    }

    @Test func byteOrderMarkIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.write("\u{FEFF}" + (try title.text("120p/index.m3u8")), to: "120p/index.m3u8")
        let report = title.check()
        #expect(report.violations(of: .playlistEncoding).map(\.file) == ["120p/index.m3u8"])
        #expect(report.brokenRules == [.playlistEncoding])
    }

    @Test func missingHeaderIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXTM3U\n", with: "", in: "240p/index.m3u8")
        #expect(title.brokenRules() == [.playlistHeader])
    }

    @Test func uriEscapingTheTitleFolderIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("120p/index.m3u8", with: "../../120p/index.m3u8", in: "master.m3u8")
        let report = title.check()
        #expect(report.violations(of: .playlistURI).first?.message.contains("outside") == true)
    }

    @Test func missingSegmentFileIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try FileManager.default.removeItem(at: title.url("120p/segment_001.ts"))
        #expect(title.brokenRules().contains(.playlistURI))
    }

    @Test func extinfSumThatMissesTheMediaDurationIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        for rung in ["240p", "120p"] {
            try title.replace("#EXTINF:2.000000,", with: "#EXTINF:2.100000,", in: "\(rung)/index.m3u8")
        }
        #expect(title.brokenRules().contains(.mediaDuration))
    }

    @Test func segmentsOutOfOrderBreakTimestampContinuity() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("segment_000.ts", with: "segment_00X.ts", in: "240p/index.m3u8")
        try title.replace("segment_001.ts", with: "segment_000.ts", in: "240p/index.m3u8")
        try title.replace("segment_00X.ts", with: "segment_001.ts", in: "240p/index.m3u8")
        let rules = title.brokenRules()
        #expect(rules.contains(.segmentTimestamps))
        #expect(rules.contains(.ladderSegmentAlignment))
    }

    @Test func segmentCutAtANonKeyPictureIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        let path = title.url("240p/segment_001.ts")
        let bytes = [UInt8](try Data(contentsOf: path))
        let pictures = try #require(TransportStreamSegment(bytes: bytes).video?.accessUnits)
        let cut = Array(bytes[..<pictures[0].byteOffset]) + Array(bytes[pictures[1].byteOffset...])
        try Data(cut).write(to: path)
        let report = title.check()
        #expect(report.violations(of: .segmentIDRStart).map(\.file) == ["240p/segment_001.ts"])
        #expect(report.violations(of: .segmentParameterSets).map(\.file) == ["240p/segment_001.ts"])
    }

    @Test func segmentWithoutProgramTablesIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        let path = title.url("120p/segment_000.ts")
        let bytes = [UInt8](try Data(contentsOf: path))
        let firstPES = try #require(TransportStreamSegment(bytes: bytes).video?.accessUnits.first?.byteOffset)
        let psi = bytes[..<firstPES]
        try Data(Array(bytes[firstPES..<(firstPES + 188)]) + psi + bytes[(firstPES + 188)...]).write(to: path)
        #expect(title.brokenRules().contains(.segmentProgramTables))
    }

    @Test func lowLevelInTheSPSIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try setLevel(10, inTheSPSOf: title.url("240p/segment_000.ts"))
        let report = title.check()
        #expect(report.brokenRules.contains(.videoLevel))
        #expect(report.violations(of: .masterCodecs).first?.message.contains("avc1.64000a") == true)
    }

    @Test func aSegmentWhoseSPSCallsForAnotherCodecStringIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try setLevel(12, inTheSPSOf: title.url("240p/segment_001.ts"))
        let report = title.check()
        #expect(report.brokenRules == [.masterCodecs], "the first segment still describes the rung: \(report.violations)")
        let message = try #require(report.violations(of: .masterCodecs).first?.message)
        #expect(message.contains("segment_001.ts") && message.contains("avc1.64000c") && message.contains("avc1.64000d"))
    }

    /// Rewrites level_idc in the first SPS of a 240p segment (High profile, level 1.3).
    private func setLevel(_ level: UInt8, inTheSPSOf path: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: path))
        let sps: [UInt8] = [0x67, 0x64, 0x00, 0x0D]
        let index = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == sps })
        bytes[index + 3] = level
        try Data(bytes).write(to: path)
    }

    @Test func iFrameStreamWithFrameRateIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("URI=\"240p/iframes.m3u8\"", with: "URI=\"240p/iframes.m3u8\",FRAME-RATE=30.000", in: "master.m3u8")
        #expect(title.brokenRules() == [.iFrameAttributes])
    }

    @Test func iFramePlaylistWithoutTheTagIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXT-X-I-FRAMES-ONLY\n", with: "", in: "120p/iframes.m3u8")
        #expect(title.brokenRules().contains(.iFramePlaylist))
    }

    @Test func iFrameRangeOnTheWrongPictureIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        let playlist = try title.text("240p/iframes.m3u8")
        let range = try #require(playlist.firstMatch(of: /BYTERANGE:(\d+)@(\d+)/))
        let shifted = "BYTERANGE:\(range.1)@\(Int(range.2)! + 188 * 40)"
        try title.replace("BYTERANGE:\(range.1)@\(range.2)", with: shifted, in: "240p/iframes.m3u8")
        #expect(title.brokenRules() == [.iFrameRange])
    }

    @Test func iFrameRangeOffPacketBoundaryIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        let range = try #require(try title.text("120p/iframes.m3u8").firstMatch(of: /BYTERANGE:(\d+)@(\d+)/))
        try title.replace("BYTERANGE:\(range.1)@\(range.2)", with: "BYTERANGE:\(range.1)@\(Int(range.2)! + 4)", in: "120p/iframes.m3u8")
        let report = title.check()
        #expect(report.violations(of: .iFrameRange).first?.message.contains("packets") == true)
    }

    @Test func missingIFrameStreamIsCaught() throws {
        let title = try TestTitle.conformantCopy()
        let lines = try title.text("master.m3u8").split(separator: "\n").filter { !$0.contains("120p/iframes") }
        try title.write(lines.joined(separator: "\n") + "\n", to: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.iFrameMissing])
    }

    @Test func anEXTXMAPMustNameAnInitSegmentBeforeFMP4Segments() throws {
        let title = try TestTitle.conformantCopy()
        try title.replace("#EXT-X-PLAYLIST-TYPE:VOD\n", with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.mp4\"\n", in: "120p/index.m3u8")
        let missing = title.brokenRules()
        #expect(missing.contains(.playlistURI), "the init segment it names is not there")
        #expect(missing.contains(.mediaVersion), "EXT-X-MAP needs version 6")
        try title.write("not an init segment", to: "120p/init.mp4")
        let rules = title.brokenRules()
        #expect(rules.contains(.fmp4Init), "no ftyp and moov")
        #expect(rules.contains(.fmp4Segment), "MPEG-TS segments read as fMP4 start with no styp")
    }

    /// Scales the BANDWIDTH of the variant whose playlist is `rung/index.m3u8`.
    private func scaleBandwidth(of rung: String, in title: TestTitle, by factor: Double) throws {
        let lines = try title.text("master.m3u8").split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex(of: "\(rung)/index.m3u8"))
        let bandwidth = try #require(lines[index - 1].firstMatch(of: /BANDWIDTH=(\d+)/)?.1)
        try title.replace("STREAM-INF:BANDWIDTH=\(bandwidth),", with: "STREAM-INF:BANDWIDTH=\(Int(Double(bandwidth)! * factor)),", in: "master.m3u8")
    }
}
