import Foundation
import Testing
import VODTestSupport

/// Real responses match the document: schemathesis (`Tests/OpenAPI/schemathesis.toml`) runs every check it has
/// against a `vod serve` that holds a transcoded title and has a playback key, and finds no server error, no response outside the
/// schemas, statuses or content types documented, and no documented input refused.
@Suite(.tags(.ffmpeg, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct OpenAPIConformanceTests {
    @Test func schemathesisFindsNothingAgainstALiveServer() async throws {
        let test = try TestLibrary()
        let keyFile = test.directory.url.appendingPathComponent("playback.key").path
        try Data(PlaybackTokenTests.key.utf8).write(to: URL(fileURLWithPath: keyFile))
        let server = try ServerProcess(library: test, arguments: ["--playback-key-file", keyFile])
        defer { server.process.terminate() }
        try await server.waitUntilListening()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 2).make(in: test.directory.url)
        let item = try await test.uploadUntilTranscoded(clip, title: "Fuzzed", to: server.url)
        #expect(item.status == .ready)

        let arguments = [
            "-C", test.root, "SCHEMATHESIS_HOOKS=\(Self.config.appendingPathComponent("schemathesis_hooks.py").path)",
            OpenAPIFiles.python, "-m", "schemathesis.cli", "--config-file", Self.config.appendingPathComponent("schemathesis.toml").path,
            "run", "\(server.url)/api/openapi.json", "--checks", "all",
        ]
        let output = try await ExternalTool.run("env", arguments, timeout: 240)
        #expect(output.status == 0, "\(output.standardOutput.suffix(12_000))\(output.standardError.suffix(2000))")
        // "Test cases: N generated, N passed", over every operation but the three streams.
        let summary = output.standardOutput.firstMatch(of: /(\d+) generated, (\d+) passed/)
        #expect(summary.map { Int($0.1)! > 1000 && $0.1 == $0.2 } == true, "\(output.standardOutput.suffix(3000))")
        // Every operation selected was tested: "Selected: N/M … Tested: N".
        let selected = output.standardOutput.firstMatch(of: /Selected: (\d+)\/\d+\s+Tested: (\d+)/)
        #expect(selected.map { $0.1 == $0.2 && Int($0.1)! >= 25 } == true, "\(output.standardOutput.suffix(3000))")
    }

    /// `Tests/OpenAPI`: the schemathesis configuration and hooks.
    private static var config: URL { OpenAPIFiles.packageRoot.appendingPathComponent("Tests/OpenAPI") }
}
