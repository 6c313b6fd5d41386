import Foundation
import VODTestSupport

/// `Tests/Tus/upload.py`: tuspy, the tus project's Python client, uploading through a proxy that cuts
/// connections, run with the Python that `Scripts/setup --test` prepares in `.build/python`. It talks in JSON
/// lines on its standard output and reads the port of a restarted server on its standard input.
final class TuspyClient: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let log: URL
    private var buffered = Data()

    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts uploading `file` to the server on `port` as `title`, in chunks of `chunkSize` bytes; `seed` picks
    /// where connections are cut.
    init(file: String, port: Int, title: String, chunkSize: Int, seed: UInt64, log: URL) throws {
        self.log = log
        let python = ProcessInfo.processInfo.environment["VOD_TEST_PYTHON"]
            ?? Self.packageRoot.appendingPathComponent(".build/python/bin/python").path
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            Self.packageRoot.appendingPathComponent("Tests/Tus/upload.py").path, file, "\(port)", title, "\(chunkSize)", "\(seed)",
        ]
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardError = handle
        try process.run()
    }

    /// The next JSON line the script prints; fails when it exits first.
    func nextMessage() async throws -> [String: Any] {
        let line = try await offPool { () -> Data in
            while true {
                if let newline = self.buffered.firstIndex(of: 0x0A) {
                    let line = self.buffered[..<newline]
                    self.buffered = Data(self.buffered[(newline + 1)...])
                    return Data(line)
                }
                let data = self.output.fileHandleForReading.availableData
                guard !data.isEmpty else {
                    self.process.waitUntilExit()
                    let errors = (try? String(contentsOf: self.log, encoding: .utf8)) ?? ""
                    throw LiveTestFailure(description: "upload.py exited \(self.process.terminationStatus): \(errors.suffix(3000))")
                }
                self.buffered += data
            }
        }
        guard let message = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            throw LiveTestFailure(description: "upload.py printed \(String(decoding: line, as: UTF8.self))")
        }
        return message
    }

    /// Tells the script the port of the restarted server.
    func send(port: Int) throws {
        try input.fileHandleForWriting.write(contentsOf: Data("\(port)\n".utf8))
    }

    /// Stops the script if it still runs.
    func stop() {
        if process.isRunning { process.terminate() }
    }
}
