import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct ConformantTitleTests {
    @Test func conformantTitleHasNoViolations() throws {
        let report = try TestTitle.conformant.get().check()
        #expect(report.violations.map(\.description) == [])
        #expect(report.isConformant)
        #expect(report.measurements.rungs.count == 2)
        #expect(report.measurements.iFrameRungs.count == 2)
    }

    @Test func measurementsMatchAnIndependentComputation() throws {
        let title = try TestTitle.conformant.get()
        let report = title.check()
        for rung in title.rungs {
            let measured = try #require(report.measurements.rungs.first { $0.playlist == "\(rung.name)/index.m3u8" })
            let expected = try title.bitRates(rung)
            #expect(abs(measured.peakBandwidth - expected.peak) < 1e-6)
            #expect(abs(measured.averageBandwidth - expected.average) < 1e-6)
            #expect(measured.codecs == [try title.codecString(rung), "mp4a.40.2"])
            #expect(measured.sps.map { Resolution(width: $0.width, height: $0.height) } == Resolution(width: rung.width, height: rung.height))
            #expect(measured.frameRate == 30)
            #expect(measured.videoDuration.map { abs($0 - 8) < 1e-9 } == true)
            let idrSteps = zip(measured.idrTimes.dropFirst(), measured.idrTimes).map { $0 - $1 }
            #expect(measured.idrTimes.count == 4)
            #expect(idrSteps.allSatisfy { abs($0 - 2) < 1e-9 })
            #expect(measured.segments.map(\.duration) == [6, 2])
        }
        let starts = report.measurements.rungs.map { $0.segments.map(\.videoStart) }
        #expect(starts[0] == starts[1])
        let iFrameTimes = report.measurements.iFrameRungs.map(\.idrTimes)
        #expect(iFrameTimes[0] == report.measurements.rungs[0].idrTimes.map(Optional.some))
    }
}
