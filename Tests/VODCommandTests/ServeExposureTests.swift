import Foundation
import Testing
import VODTestSupport

/// `vod serve` with writes open to anyone refuses, in words, to listen where other machines reach it.
@Suite("vod serve's safe defaults", .tags(.processes), .needsExternalTools, .timeLimit(.minutes(2)))
struct ServeExposureTests {
    @Test func anOpenServerRefusesToListenOnEveryInterface() async throws {
        let directory = try TemporaryDirectory()
        let run = try await VODBinary.run(["serve", "--host", "0.0.0.0", "--port", "0",
                                           "--media-dir", directory.url.path + "/media", "--output-dir", directory.url.path + "/out"],
                                          timeout: 60)
        #expect(run.status != 0)
        #expect(run.standardError.contains("Refusing to listen on 0.0.0.0 with writes open to anyone"), "\(run.standardError)")
        #expect(run.standardError.contains("--allow-open-writes"))
        #expect(!FileManager.default.fileExists(atPath: directory.url.path + "/media"), "nothing was created")
    }

    @Test func aBadCORSOriginIsRefusedInWords() async throws {
        let run = try await VODBinary.run(["serve", "--cors-origin", "app.example.com"], timeout: 60)
        #expect(run.status != 0)
        #expect(run.standardError.contains("--cors-origin must be an http or https origin"), "\(run.standardError)")
    }
}
