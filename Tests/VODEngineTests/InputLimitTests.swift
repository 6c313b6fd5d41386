import Foundation
import Testing
import VODEngine
import VODTestSupport

/// Headers that claim absurd pictures or durations are refused before anything is decoded.
@Suite("Refusing lying headers", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct InputLimitTests {
    @Test func aPictureBeyond8KIsRefusedWhileAn8KPictureIsPlanned() throws {
        #expect(throws: MediaError.invalid("the video claims 12000×12000 pixels, more than the 8192×4320 this service transcodes")) {
            try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 12000, displayHeight: 12000)
        }
        #expect(try LadderPlanner.plan(ladder: Rung.defaultLadder, displayWidth: 7680, displayHeight: 4320).count == 3)
    }

    @Test(arguments: [
        ("absurd-duration", "the file claims to last 1193 hours, more than the 24-hour limit"),
        ("raw-header-claims-12000", "the video claims 12000×12000 pixels, more than the 8192×4320 this service transcodes"),
    ])
    func aLyingHeaderIsRefusedAtProbe(_ name: String, _ reason: String) async throws {
        let directory = try TemporaryDirectory()
        let file = try await #require(HostileCorpus.files.first { $0.name == name }).write(in: directory.url)
        #expect(throws: MediaError.invalid(reason)) { try MediaProber.probe(path: file) }
    }
}
