import Foundation
import Testing
import VODTestSupport

/// The test helper that runs external tools: what it returns, and that a tool outliving its timeout is ended.
@Suite(.tags(.processes), .needsExternalTools, .timeLimit(.minutes(2))) struct ExternalToolTests {
    @Test func returnsTheToolsOutputStatusAndEnvironment() async throws {
        let output = try await ExternalTool.run("sh", ["-c", "echo \"$VOD_TEST_VALUE\"; echo oops >&2; exit 3"],
                                                environment: ["VOD_TEST_VALUE": "seen"])
        #expect(output.status == 3)
        #expect(output.standardOutput == "seen\n")
        #expect(output.standardError == "oops\n")
    }

    @Test func aToolThatIgnoresSIGTERMIsKilledAtItsTimeout() async throws {
        let directory = try TemporaryDirectory()
        let pidFile = directory.url.appendingPathComponent("pid").path
        let error = await #expect(throws: ToolError.self) {
            try await ExternalTool.run("sh", ["-c", "trap '' TERM; echo $$ > \(pidFile); while :; do sleep 1; done"], timeout: 1)
        }
        #expect(error?.description.hasPrefix("sh -c") == true, "\(String(describing: error))")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the tool no longer runs")
    }
}
