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

    /// Opens `url` in a `<video>` element, lets it play until its playhead reaches `seconds`, and reports.
    public static func play(_ url: String, seconds: Double = 3) async throws -> Playback {
        let python = ProcessInfo.processInfo.environment["VOD_TEST_PYTHON"]
            ?? packageRoot.appendingPathComponent(".build/python/bin/python").path
        let script = packageRoot.appendingPathComponent("Tests/Browser/play.py").path
        let output = try await ExternalTool.require(python, [script, url, String(seconds)], timeout: 90)
        return try JSONDecoder().decode(Playback.self, from: Data(output.standardOutput.utf8))
    }
}
