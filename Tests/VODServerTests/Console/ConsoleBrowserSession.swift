import Foundation
import VODTestSupport

/// One run of `Tests/Console/console.py`: two `vod serve` processes on loopback, one open and one with an API key,
/// a playback key and a player script, each transcoding with a two-rung ladder of tiny rungs, and one Chromium session over both.
enum ConsoleBrowserSession {
    /// The key of the protected server.
    static let key = "console-test-key-7f3a9c"
    /// The player script the protected server names; the browser session answers it with a stand-in.
    static let playerScriptURL = "http://player.test/hls.js"
    /// Where the ladder stops: the fixtures are 320×180, so both rungs are made.
    static let serverArguments = ["--ladder", "180p:320x180@250k,144p:256x144@150k", "--preset", "ultrafast", "--segment-duration", "2"]

    static func run() async throws -> ConsoleReport {
        let open = try TestLibrary()
        let guarded = try TestLibrary()
        let keyFile = guarded.directory.url.appendingPathComponent("keys")
        try Data("\(key)\n".utf8).write(to: keyFile)
        let playbackKeyFile = guarded.directory.url.appendingPathComponent("playback.key")
        try Data("\(String(repeating: "c3", count: 32))\n".utf8).write(to: playbackKeyFile)
        let openServer = try server(open, [])
        defer { openServer.process.terminate() }
        let guardedServer = try server(guarded, [
            "--api-key-file", keyFile.path, "--playback-key-file", playbackKeyFile.path, "--player-script-url", playerScriptURL,
        ])
        defer { guardedServer.process.terminate() }
        let clip = try await SyntheticClip(width: 320, height: 180, duration: 4).make(in: open.directory.url)
        let tracks = try await SyntheticClip.multiTrack(
            [ToneTrack(frequency: 440, metadata: ["language=eng"], disposition: "default"),
             ToneTrack(frequency: 660, metadata: ["language=fra"])],
            duration: 4, size: "320x180", in: open.directory.url
        )
        try await openServer.waitUntilListening()
        try await guardedServer.waitUntilListening()
        let configuration = try JSONSerialization.data(withJSONObject: [
            "open_url": openServer.url, "key_url": guardedServer.url, "key": key, "clip": clip, "tracks": tracks,
        ])
        let output = try await ExternalTool.require(OpenAPIFiles.python, [script, String(decoding: configuration, as: UTF8.self)], timeout: 240)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ConsoleReport.self, from: Data(output.standardOutput.utf8))
    }

    private static func server(_ library: TestLibrary, _ arguments: [String]) throws -> ServerProcess {
        try ServerProcess(
            database: library.databasePath, media: library.mediaDirectory, output: library.outputDirectory,
            arguments: serverArguments + arguments
        )
    }

    private static var script: String { OpenAPIFiles.packageRoot.appendingPathComponent("Tests/Console/console.py").path }
}
