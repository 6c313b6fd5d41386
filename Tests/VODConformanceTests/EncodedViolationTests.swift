import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

/// Titles encoded on purpose with a rule broken by the encoder settings themselves.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct EncodedViolationTests {
    /// A small rung: 160x120, 4 s, one 4 s segment unless said otherwise.
    private func rung(_ name: String, gop: Int = 60) -> RungSpec {
        RungSpec(name: name, width: 160, height: 120, gop: gop, hlsTime: 6, seconds: 4)
    }

    @Test func segmentsSplitBetweenKeyframesAreCaught() throws {
        var spec = rung("long-gop", gop: 250)
        spec.hlsTime = 1
        spec.extra = ["-hls_flags", "split_by_time"]
        let report = try TestTitle.make([spec]).check()
        #expect(report.violations(of: .segmentIDRStart).count == 3)
        #expect(report.brokenRules.contains(.segmentIDRInterval))
        #expect(report.brokenRules.contains(.segmentParameterSets))
    }

    @Test func rungsWithDifferentKeyframeTimingAreCaught() throws {
        var other = rung("gop50", gop: 50)
        other.width = 320
        other.height = 240
        var base = rung("gop60")
        base.seconds = 8
        other.seconds = 8
        let report = try TestTitle.make([base, other]).check()
        #expect(report.brokenRules.contains(.ladderIDRAlignment))
        #expect(report.brokenRules.contains(.ladderSegmentAlignment))
        #expect(report.measurements.rungs.map(\.idrTimes.count).sorted() == [4, 5])
    }

    @Test func baselineProfileIsCaught() throws {
        var spec = rung("baseline")
        spec.profile = "baseline"
        let title = try TestTitle.make([spec])
        #expect(title.brokenRules() == [.videoProfile])
    }

    @Test func tenBitVideoIsCaught() throws {
        var spec = rung("10bit")
        spec.profile = "high10"
        spec.extra = ["-pix_fmt", "yuv420p10le"]
        let report = try TestTitle.make([spec]).check()
        #expect(report.brokenRules.contains(.videoFormat))
        #expect(report.measurements.rungs.first?.sps?.bitDepthLuma == 10)
    }

    @Test func nonAACAudioIsCaught() throws {
        var spec = rung("mp2")
        spec.extra = ["-c:a", "mp2"]
        let report = try TestTitle.make([spec]).check()
        #expect(report.violations(of: .segmentAudio).first?.message.contains("not AAC") == true)
    }

    @Test func rungWithoutAudioInATitleWithAudioIsCaught() throws {
        var silent = rung("silent")
        silent.audio = false
        silent.width = 320
        silent.height = 240
        let report = try TestTitle.make([rung("sound"), silent]).check()
        #expect(report.violations(of: .segmentAudio).map(\.file) == ["silent/segment_000.ts"])
    }

    @Test func audioEndingBeforeVideoIsCaught() throws {
        var spec = rung("short-audio")
        spec.extra = ["-af", "atrim=duration=3"]
        let report = try TestTitle.make([spec]).check()
        #expect(report.brokenRules.contains(.mediaAudioVideoEnd))
    }

    @Test func singleMediaPlaylistIsCheckedWithoutMasterRules() throws {
        let title = try TestTitle.conformant.get()
        let report = HLSConformance.check(masterURL: title.url("120p/index.m3u8"))
        #expect(report.violations == [])
        #expect(report.measurements.rungs.count == 1)
        #expect(report.measurements.rungs.first?.frameRate == 30)
    }
}
