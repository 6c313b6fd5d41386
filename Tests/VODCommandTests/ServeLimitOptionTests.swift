import Foundation
import Testing
import VODTestSupport

/// `vod serve`'s connection caps come from options or their environment variables, and a cap that bounds
/// nothing is refused in words before the server starts.
@Suite("vod serve's connection caps", .tags(.processes), .needsExternalTools, .timeLimit(.minutes(2)))
struct ServeLimitOptionTests {
    @Test func aCapBelowOneIsRefusedInWords() async throws {
        let run = try await VODBinary.run(["serve", "--max-concurrent-uploads", "0"], timeout: 60)
        #expect(run.status != 0)
        #expect(run.standardError.contains(
            "--max-concurrent-uploads (VOD_MAX_CONCURRENT_UPLOADS) must be a whole number of at least 1, not '0'."),
                "\(run.standardError)")
    }

    @Test(arguments: [
        ("VOD_MAX_EVENT_SUBSCRIBERS", "many", "--max-event-subscribers (VOD_MAX_EVENT_SUBSCRIBERS) must be a whole number"),
        ("VOD_MAX_FORM_FIELDS", "-3", "--max-form-fields (VOD_MAX_FORM_FIELDS) must be a whole number"),
        ("VOD_MAX_FORM_FIELD_SIZE", "lots", "Invalid form field size 'lots'"),
    ])
    func theEnvironmentVariablesAreRead(_ variable: String, _ value: String, _ refusal: String) async throws {
        let run = try await ExternalTool.run(VODBinary.path, ["serve"], environment: [variable: value], timeout: 60)
        #expect(run.status != 0)
        #expect(run.standardError.contains(refusal), "\(run.standardError)")
    }
}
