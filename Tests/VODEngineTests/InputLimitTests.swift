import Foundation
import Testing
import VODEngine
import VODTestSupport

/// Headers that claim absurd pictures or durations are refused before anything is decoded, and decode bombs
/// (`DecodeBomb`) at probe or, for a picture that grows mid-stream, when it is decoded.
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

    @Test(arguments: [
        (DecodeBomb.hugeSPS, "the video claims 16000×16000 pixels, more than the 8192×4320 this service transcodes"),
        (.eightHugeStreams, "the video claims 16000×16000 pixels, more than the 8192×4320 this service transcodes"),
        (.millionSkipFrames, "the video has no duration and holds more than 108000 pictures (an hour at 30 frames a second), "
            + "the most this service reads from such a file"),
    ])
    func aDecodeBombIsRefusedAtProbe(_ bomb: DecodeBomb, _ reason: String) async throws {
        let directory = try TemporaryDirectory()
        let file = try await bomb.write(in: directory.url)
        #expect(throws: MediaError.invalid(reason)) { try MediaProber.probe(path: file) }
    }

    @Test func aPictureThatGrowsPastTheLimitsMidStreamFailsTheTranscode() async throws {
        let directory = try TemporaryDirectory()
        let file = try await DecodeBomb.growsMidStream.write(in: directory.url)
        #expect(try MediaProber.probe(path: file).video?.width == 320, "the probe sees the first pictures only")
        let output = directory.url.appendingPathComponent("out").path
        await #expect(throws: MediaError.invalid(
            "the video changes to 8000×8000 pixels mid-stream, more than the 8192×4320 this service transcodes")) {
            try await Transcoder(options: TranscodeOptions(preset: "ultrafast")).transcode(input: file, outputDirectory: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output), "the failed transcode left nothing")
    }
}
