import Foundation

/// Runs Debian's command-line tools (ffmpeg, ffprobe, gst-launch-1.0) from tests, which use them to make
/// synthetic clips and to check output as an independent client would. Product code never runs them.
public enum ExternalTool {
    /// What a finished process printed and how it exited.
    public struct Output: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs `tool` with `arguments` and `environment` added to the test process's, waiting at most `timeout`
    /// seconds, and returns its output.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                           timeout: TimeInterval = 300) throws -> Output {
        try refuseWithoutTools(tool)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let err = directory.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        // Closed here: the handles a finished Process holds are not closed for it, and a test process that runs
        // thousands of tools would run out of descriptors (and so would a server it starts).
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning {
            if Date() > deadline {
                stop(process)
                throw ToolError(description: "\(tool) \(arguments.joined(separator: " ")) timed out after \(timeout) s")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return Output(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
    }

    /// Ends `process`: SIGTERM, then SIGKILL if it still runs a second later (a hung GStreamer ignores SIGTERM).
    private static func stop(_ process: Process) {
        process.terminate()
        let grace = Date(timeIntervalSinceNow: 1)
        while process.isRunning, Date() < grace { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs `tool` and throws unless it exits 0.
    @discardableResult
    public static func require(_ tool: String, _ arguments: [String], timeout: TimeInterval = 300) throws -> Output {
        let output = try run(tool, arguments, timeout: timeout)
        guard output.status == 0 else {
            throw ToolError(description: "\(tool) \(arguments.joined(separator: " ")) exited \(output.status): \(output.standardError.suffix(2000))")
        }
        return output
    }
}

extension ExternalTool {
    /// Whether this run leaves out every test that needs an external tool (`Scripts/test --fast` sets
    /// `VOD_TEST_WITHOUT_TOOLS=1`); the tests it still runs must then run none.
    public static var withoutTools: Bool { ProcessInfo.processInfo.environment["VOD_TEST_WITHOUT_TOOLS"] == "1" }

    /// Throws when a test runs `tool` in a run without tools: that test lacks the tag that leaves it out.
    static func refuseWithoutTools(_ tool: String) throws {
        guard withoutTools else { return }
        throw ToolError(description: "this test runs \(tool) but lacks `.tags(…), .needsExternalTools` (tags such as "
            + ".ffmpeg or .processes), so `Scripts/test --fast` did not leave it out")
    }
}

/// A test tool failed.
public struct ToolError: Error, CustomStringConvertible {
    public var description: String
}
