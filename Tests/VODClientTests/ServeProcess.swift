import Foundation
import VODClient
import VODTestSupport

/// `vod serve` as a user starts it, on a fresh catalog and folders, with a one-rung ladder of 320x180 so that a
/// 2-second clip is ready in a second or two.
final class ServeProcess: @unchecked Sendable {
    let directory: TemporaryDirectory
    let port: Int
    private let process = Process()

    /// Starts the server; with `apiKey` or `secret`, writes need them.
    init(workers: Int = 1, apiKey: String? = nil, secret: String? = nil) throws {
        directory = try TemporaryDirectory()
        port = try LoopbackPort.free()
        let root = directory.url.path
        var arguments = [
            VODBinary.path, "serve", "--port", "\(port)", "--database", "\(root)/media/vod.sqlite", "--media-dir", "\(root)/media",
            "--output-dir", "\(root)/hls_output", "--ladder", "180p:320x180@200k", "--preset", "ultrafast",
            "--workers", "\(workers)", "--log-level", "error",
        ]
        for (option, value) in [("--api-key-file", apiKey), ("--api-secret-file", secret)] {
            guard let value else { continue }
            let file = directory.url.appendingPathComponent(String(option.dropFirst(2)))
            try Data(value.utf8).write(to: file)
            arguments += [option, file.path]
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Where the server keeps uploaded originals.
    var mediaDirectory: String { directory.url.path + "/media" }

    /// A client of this server, or of the proxy in front of it on `port`.
    func client(port: Int? = nil, apiKey: String? = nil, secret: String? = nil, options: VODClient.Options = VODClient.Options()) -> VODClient {
        VODClient(baseURL: URL(string: "http://127.0.0.1:\(port ?? self.port)")!, apiKey: apiKey, signingSecret: secret, options: options)
    }

    /// Waits until the server answers.
    func waitUntilListening() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while (try? await client().list()) == nil {
            guard process.isRunning, ContinuousClock.now < deadline else { throw ServeFailure(description: "vod serve did not start") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The path of one of the originals the server keeps, by size.
    func storedOriginal(ofSize size: Int) throws -> String? {
        try FileManager.default.contentsOfDirectory(atPath: mediaDirectory).map { "\(mediaDirectory)/\($0)" }
            .first { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) == size }
    }

    struct ServeFailure: Error, CustomStringConvertible {
        let description: String
    }
}
