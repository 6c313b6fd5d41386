import Testing
@testable import VODConformance

@Suite(.timeLimit(.minutes(2))) struct BandwidthTests {
    @Test func peakIsTheBusiestQualifyingRun() {
        let segments = [(bytes: 100_000, duration: 2.0), (400_000, 2.0), (100_000, 2.0), (100_000, 2.0)]
        // TD 4: runs of 2 to 6 s qualify; the single 2 s segment of 400 kB is the busiest at 1.6 Mb/s.
        #expect(Bandwidth.peak(segments: segments, targetDuration: 4) == 1_600_000)
        // TD 6: runs of 3 to 9 s; single 2 s segments are too short, so the best is the 4 s pair around 400 kB.
        #expect(Bandwidth.peak(segments: segments, targetDuration: 6) == 1_000_000)
    }

    @Test func runLongerThanOneAndAHalfTargetsDoesNotCount() {
        // 20 kB over 1 s, then 1 MB over 6 s: with TD 4 the window is 2…6 s, so only the 6 s segment and the 7 s pair
        // would be candidates, and the pair is too long.
        let segments = [(bytes: 20_000, duration: 1.0), (1_000_000, 6.0)]
        #expect(Bandwidth.peak(segments: segments, targetDuration: 4) == 1_000_000 * 8 / 6.0)
    }

    @Test func titleShorterThanHalfTheTargetUsesTheWholeRung() {
        let segments = [(bytes: 10_000, duration: 1.0), (30_000, 1.0)]
        #expect(Bandwidth.peak(segments: segments, targetDuration: 6) == 160_000)
        #expect(Bandwidth.average(segments: segments) == 160_000)
    }

    @Test func averageIsAllBytesOverAllDuration() {
        let segments = [(bytes: 600_000, duration: 6.0), (100_000, 2.0)]
        #expect(Bandwidth.average(segments: segments) == 700_000.0 * 8 / 8)
        #expect(Bandwidth.average(segments: []) == 0)
    }
}
