import Testing
@testable import VODEngine

/// Which picture each rung is scaled from: the source, or a larger rung's scaled picture, never a chain.
@Suite(.timeLimit(.minutes(2))) struct ScaleCascadeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var source: (width: Int, height: Int)
        var ladder: [Rung]
        /// "rung ← feeder" for each planned rung, "source" when scaled from the source.
        var expected: [String]

        var testDescription: String { label }
    }

    static func rung(_ name: String, _ width: Int, _ height: Int) -> Rung {
        Rung(name: name, width: width, height: height, bitrate: 1_000_000)
    }

    static let cases: [Case] = [
        Case(label: "4k source: 720p from the 1080p picture, 1080p and 4k from the source",
             source: (3840, 2160), ladder: Rung.defaultLadder,
             expected: ["720p ← 1080p", "1080p ← source", "4k ← source"]),
        Case(label: "1080p source: the 1080p rung is the source's picture and feeds nobody",
             source: (1920, 1080), ladder: Rung.defaultLadder, expected: ["720p ← source", "1080p ← source"]),
        Case(label: "portrait 4k source cascades the same way",
             source: (2160, 3840), ladder: Rung.defaultLadder,
             expected: ["720p ← 1080p", "1080p ← source", "4k ← source"]),
        Case(label: "no chains: 480p and 720p both from the 1080p picture",
             source: (3840, 2160),
             ladder: [rung("480p", 854, 480), rung("720p", 1280, 720), rung("1080p", 1920, 1080)],
             expected: ["480p ← 1080p", "720p ← 1080p", "1080p ← source"]),
        Case(label: "a picture less than 1.25 times larger feeds nobody",
             source: (3840, 2160),
             ladder: [rung("900p", 1600, 900), rung("1080p", 1920, 1080)],
             expected: ["900p ← source", "1080p ← source"]),
    ]

    @Test(arguments: cases)
    func picksFeeders(_ testCase: Case) throws {
        let plan = try LadderPlanner.plan(ladder: testCase.ladder, displayWidth: testCase.source.width,
                                          displayHeight: testCase.source.height)
        let feeders = ScaleCascade.feeders(of: plan, sourceWidth: testCase.source.width,
                                           sourceHeight: testCase.source.height)
        let described = zip(plan, feeders).map { rung, feeder in
            "\(rung.name) ← \(feeder.map { plan[$0].name } ?? "source")"
        }
        #expect(described == testCase.expected)
    }
}
