import Foundation

/// The `vod` executable built beside the test runner, run as a user would run it.
public enum VODBinary {
    /// The path of the built `vod` executable.
    public static var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("vod").path
    }

    /// Runs `vod` with `arguments` and returns what it printed and its exit status.
    @discardableResult
    public static func run(_ arguments: [String], timeout: TimeInterval = 300) async throws -> ExternalTool.Output {
        try await ExternalTool.run(path, arguments, timeout: timeout)
    }
}
