import Testing
import VODEngine

@Suite("Ladder planning", .timeLimit(.minutes(2)))
struct LadderPlannerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var width: Int
        var height: Int
        var expected: [String]

        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "1080p source gets 720p and 1080p, no upscaled 4k", width: 1920, height: 1080,
             expected: ["720p 1280x720", "1080p 1920x1080"]),
        Case(label: "2160p source gets every rung", width: 3840, height: 2160,
             expected: ["720p 1280x720", "1080p 1920x1080", "4k 3840x2160"]),
        Case(label: "portrait 1080x1920 gets portrait rungs", width: 1080, height: 1920,
             expected: ["720p 720x1280", "1080p 1080x1920"]),
        Case(label: "720p source gets only 720p", width: 1280, height: 720, expected: ["720p 1280x720"]),
        Case(label: "source between rungs drops the taller one", width: 1600, height: 900, expected: ["720p 1280x720"]),
        Case(label: "scope 1920x800 keeps its aspect ratio", width: 1920, height: 800, expected: ["720p 1728x720"]),
        Case(label: "odd 1921x1081 gets even sizes", width: 1921, height: 1081,
             expected: ["720p 1280x720", "1080p 1920x1080"]),
        Case(label: "tiny 640x360 gets one rung at its own size", width: 640, height: 360, expected: ["360p 640x360"]),
        Case(label: "tiny odd 321x241 gets one even rung, not upscaled", width: 321, height: 241, expected: ["240p 320x240"]),
        Case(label: "tiny portrait 240x426 gets one portrait rung", width: 240, height: 426, expected: ["240p 240x426"]),
        Case(label: "4:3 1440x1080 gets 4:3 rungs", width: 1440, height: 1080,
             expected: ["720p 960x720", "1080p 1440x1080"]),
    ]

    @Test(arguments: cases)
    func plansRungs(_ testCase: Case) throws {
        let plan = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: testCase.width,
                                          displayHeight: testCase.height)
        #expect(plan.map { "\($0.name) \($0.width)x\($0.height)" } == testCase.expected)
    }

    @Test func keepsEachRungsBitrate() throws {
        let plan = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 3840, displayHeight: 2160)
        #expect(plan.map(\.bitrate) == [800_000, 2_800_000, 5_000_000])
    }

    @Test func tinySourceGetsABitrateScaledByPixelCount() throws {
        let plan = try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 640, displayHeight: 360)
        // 640×360 is a quarter of 1280×720's pixels, so a quarter of 800 kb/s.
        #expect(plan.map(\.bitrate) == [200_000])
    }

    @Test func refusesADegenerateSize() {
        #expect(throws: MediaError.self) {
            try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 1, displayHeight: 1)
        }
    }

    @Test func customLadderFromSpecification() throws {
        let rungs = try #require(["low:640x360@400k", "high:1280x720@1.5M"].map { Rung(specification: $0) } as [Rung?])
        #expect(rungs == [Rung(name: "low", width: 640, height: 360, bitrate: 400_000),
                          Rung(name: "high", width: 1280, height: 720, bitrate: 1_500_000)])
        let plan = try LadderPlanner.plan(ladder: rungs.compactMap { $0 }, displayWidth: 1280, displayHeight: 720)
        #expect(plan.map(\.name) == ["low", "high"])
    }

    @Test(arguments: ["", "720p", "720p:1280x720", "720p:1280@800k", ":1280x720@800k", "720p:0x720@800k", "720p:1280x720@fast"])
    func rejectsMalformedRungSpecifications(_ text: String) {
        #expect(Rung(specification: text) == nil)
    }
}
