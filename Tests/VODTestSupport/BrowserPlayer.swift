import Foundation

/// Plays a stream in Debian's Chromium through its native HLS support, driven by playwright
/// (`Tests/Browser/play.py`, run with the Python that `Scripts/setup --test` prepares in `.build/python`).
public enum BrowserPlayer {
    /// What the page's `<video>` element reports after playing.
    public struct Playback: Decodable, Sendable {
        public var canPlayHLS: String
        public var currentTime: Double
        public var duration: Double?
        public var videoWidth: Int
        public var videoHeight: Int
        public var readyState: Int
        public var error: String?
    }

    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// What a page of another origin saw when it tried to read, rename, upload to and delete from a server: for
    /// each, the HTTP status, `opaque` (sent, answer hidden from the page) or `blocked: …` (never sent, or refused by CORS).
    public struct CrossOriginAttempts: Decodable, Sendable {
        public var read: String
        public var rename: String
        public var upload: String
        public var remove: String
    }

    /// Opens the page at `pageURL` and tries, from it, what `CrossOriginAttempts` lists against title `id` of `server`.
    public static func crossOriginAttempts(server: String, id: Int64, pageURL: String) async throws -> CrossOriginAttempts {
        let output = try await ExternalTool.require(python, [script("cross_origin.py"), server, "\(id)", pageURL], timeout: 90)
        return try JSONDecoder().decode(CrossOriginAttempts.self, from: Data(output.standardOutput.utf8))
    }

    private static var python: String {
        ProcessInfo.processInfo.environment["VOD_TEST_PYTHON"] ?? packageRoot.appendingPathComponent(".build/python/bin/python").path
    }

    private static func script(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Browser/\(name)").path
    }

    /// Opens `url` in a `<video>` element, lets it play until its playhead reaches `seconds`, and reports.
    public static func play(_ url: String, seconds: Double = 3) async throws -> Playback {
        let output = try await ExternalTool.require(python, [script("play.py"), url, String(seconds)], timeout: 90)
        return try JSONDecoder().decode(Playback.self, from: Data(output.standardOutput.utf8))
    }
}
