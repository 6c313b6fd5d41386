import Foundation
import Testing
import VODCatalog
import VODTestSupport

/// Waits, without blocking a thread, until `condition` holds; fails after `timeout` seconds.
func waitUntil(
    _ what: String, timeout: Double = 120, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw LiveTestFailure(description: "timed out after \(timeout) s waiting until \(what)")
}

/// The peak resident memory of process `pid` in bytes (VmHWM, from /proc).
func peakMemory(of pid: Int32) -> Int {
    memoryField("VmHWM", of: pid)
}

/// The resident memory of process `pid` now, in bytes (VmRSS, from /proc).
func residentMemory(of pid: Int32) -> Int {
    memoryField("VmRSS", of: pid)
}

private func memoryField(_ name: String, of pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("\(name):") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

/// The files process `pid` (this one by default) holds open inside `directory`, from /proc. A staged upload
/// shows here even while it is an anonymous (`O_TMPFILE`) file that has no name in the folder yet.
func openFiles(in directory: String, of pid: String = "self") -> [String] {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
        .filter { $0.hasPrefix(directory + "/") && !$0.contains("vod.sqlite") }
}

/// A `vod serve` process on the test's catalog, as a user starts it.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    /// Whether the server runs under `strace`, so that its process is the tracer's child.
    private let traced: Bool

    convenience init(library test: TestLibrary, arguments: [String] = []) throws {
        try self.init(
            database: test.databasePath, media: test.mediaDirectory, output: test.outputDirectory,
            arguments: ["--ladder", "240p:320x240@300k,180p:240x180@200k", "--preset", "ultrafast"] + arguments
        )
    }

    /// Starts `vod serve` on the given catalog and folders; `tracer` is a command line (such as `strace …`) that
    /// runs the server, and `log` receives its standard error.
    init(
        database: String, media: String, output: String, arguments: [String], tracer: [String] = [], log: URL? = nil
    ) throws {
        port = try LoopbackPort.free()
        traced = !tracer.isEmpty
        try launchVOD(process, tracer + [
            VODBinary.path, "serve", "--port", "\(port)", "--database", database, "--media-dir", media,
            "--output-dir", output, "--log-level", "warning",
        ] + arguments, log: log)
    }

    /// A test that ends early, by a failed expectation or a thrown error, leaves no server behind.
    deinit { endIfRunning(process) }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The process id of `vod serve` itself: the tracer's child when traced.
    var serverPID: Int32 {
        let pid = process.processIdentifier
        guard traced else { return pid }
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) } ?? pid
    }

    /// Waits until `/health` answers.
    func waitUntilListening() async throws {
        try await waitUntil("vod serve listens on \(port)", timeout: 30) {
            try await ExternalTool.run("curl", ["-sf", "\(self.url)/health"]).standardOutput == "OK"
        }
    }

    /// Sends `signal` to the server and waits for the process to exit; returns its status.
    func stop(_ signal: Int32) async throws -> Int32 {
        kill(serverPID, signal)
        return try await exitStatus()
    }

    /// Waits for the process to exit and returns its status.
    func exitStatus() async throws -> Int32 {
        try await waitUntil("vod serve exits", timeout: 30) { !self.process.isRunning }
        return process.terminationStatus
    }
}

/// Ends `process` (and its children, such as a traced server) if it still runs, stopped or not, so that a test
/// that failed part-way leaves no `vod` process transcoding beside the tests that follow.
func endIfRunning(_ process: Process) {
    guard process.isRunning else { return }
    let pid = process.processIdentifier
    let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    for target in children.split(separator: " ").compactMap({ Int32($0) }) + [pid] {
        kill(target, SIGCONT)
        kill(target, SIGKILL)
    }
}

/// Starts `command` (the `vod` binary and its arguments, perhaps behind a tracer) in `process`, its standard
/// error into `log` when given.
func launchVOD(_ process: Process, _ command: [String], log: URL?) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.standardOutput = FileHandle.nullDevice
    guard let log else {
        process.standardError = FileHandle.nullDevice
        return try process.run()
    }
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    // The child has its own copy once started; ours would stay open for the whole test run.
    defer { try? handle.close() }
    process.standardError = handle
    try process.run()
}

extension TestLibrary {
    /// Uploads `file` with curl's multipart form, as the README shows, and returns the new id.
    func curlUpload(_ file: String, title: String, to server: String) async throws -> Int64 {
        let output = try await ExternalTool.require("curl", ["-sf", "-F", "file=@\(file)", "-F", "title=\(title)", "\(server)/api/media"])
        let json = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        guard let id = json?["id"] as? Int else { throw LiveTestFailure(description: "no id in \(output.standardOutput)") }
        return Int64(id)
    }

    func status(of id: Int64) async throws -> MediaStatus? {
        try await catalog.media(id: id)?.status
    }

    /// Uploads `file` with curl, waits until its job is ready or failed, and returns the item, checked ready.
    func uploadUntilTranscoded(_ file: String, title: String, to server: String) async throws -> MediaItem {
        let id = try await curlUpload(file, title: title, to: server)
        try await waitUntil("media \(id) is ready or failed") {
            [.ready, .failed].contains(try await status(of: id))
        }
        let item = try #require(try await catalog.media(id: id))
        #expect(item.status == .ready, "\(item.error ?? "")")
        return item
    }
}

/// A live test could not go on.
struct LiveTestFailure: Error, CustomStringConvertible {
    let description: String
}
