import Foundation
import Subprocess

/// Runs Debian's command-line tools (ffmpeg, ffprobe, gst-launch-1.0) from tests, which use them to make
/// synthetic clips and to check output as an independent client would. Product code never runs them.
///
/// Waiting on a tool suspends the test rather than blocking a thread: the cooperative pool has as many threads
/// as cores, and in-process servers under test, and tests running beside this one, need them meanwhile.
public enum ExternalTool {
    /// What a finished process printed and how it exited.
    public struct Output: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs `tool` with `arguments` and `environment` added to the test process's, waiting at most `timeout`
    /// seconds, and returns its output. A tool that outlives its timeout is ended (SIGTERM, then SIGKILL a
    /// second later: a hung GStreamer ignores SIGTERM) and the error names it.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                           timeout: TimeInterval = 300) async throws -> Output {
        try refuseWithoutTools(tool)
        let finished = try await withThrowingTaskGroup(of: Output?.self) { group in
            group.addTask { try await execute(tool, arguments, environment: environment) }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let finished else {
            throw ToolError(description: "\(tool) \(arguments.joined(separator: " ")) timed out after \(timeout) s")
        }
        return finished
    }

    /// Runs `tool` to its end, its output written to files rather than pipes so that large outputs never fill
    /// a pipe; cancelling the calling task ends the tool as a timeout must.
    private static func execute(_ tool: String, _ arguments: [String], environment: [String: String]) async throws -> Output {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out").path
        let err = directory.appendingPathComponent("err").path
        var options = PlatformOptions()
        options.teardownSequence = [.send(signal: .terminate, allowedDurationToNextStep: .seconds(1))]
        let updates = Dictionary(uniqueKeysWithValues: environment.compactMap { key, value in
            Environment.Key(rawValue: key).map { ($0, Optional(value)) }
        })
        let configuration = Configuration(executable: .path("/usr/bin/env"), arguments: Arguments([tool] + arguments),
                                          environment: .inherit.updating(updates), platformOptions: options)
        // Subprocess closes both files once the tool has started; they are opened close-on-exec, so no other
        // tool started meanwhile inherits them.
        let result = try await Subprocess.run(configuration, input: .none,
                                              output: .fileDescriptor(.init(rawValue: try openForWriting(out)), closeAfterSpawningProcess: true),
                                              error: .fileDescriptor(.init(rawValue: try openForWriting(err)), closeAfterSpawningProcess: true))
        let status: Int32 = switch result.terminationStatus {
        case .exited(let code): code
        case .signaled(let signal): signal
        }
        return Output(
            status: status,
            standardOutput: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        )
    }

    /// A new empty file at `path`, open for writing and closed on exec.
    private static func openForWriting(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ToolError(description: "cannot create \(path): errno \(errno)") }
        return descriptor
    }

    /// Runs `tool` and throws unless it exits 0.
    @discardableResult
    public static func require(_ tool: String, _ arguments: [String], timeout: TimeInterval = 300) async throws -> Output {
        let output = try await run(tool, arguments, timeout: timeout)
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
