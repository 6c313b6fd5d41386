import Foundation

/// Serves a folder over HTTP on a loopback port for as long as a test's closure runs, for players that download
/// only over HTTP (GStreamer's `hlsdemux2`). The server is Python's `http.server`, an independent client's view
/// of plain files, not vod's own stream routes.
public enum LoopbackFileServer {
    /// Runs `body` with the base URL (ending in `/`) under which `folder`'s files are served, then stops serving.
    public static func serving<T: Sendable>(_ folder: URL, _ body: @Sendable (String) async throws -> T) async throws -> T {
        let port = try LoopbackPort.free()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                let output = try await ExternalTool.run("python3", ["-m", "http.server", "--bind", "127.0.0.1",
                                                                    "--directory", folder.path, String(port)],
                                                        timeout: 3600)
                throw ToolError(description: "the loopback file server on port \(port) ended: exit \(output.status): \(output.standardError.suffix(500))")
            }
            defer { group.cancelAll() }
            try await waitUntilListening(port)
            return try await body("http://127.0.0.1:\(port)/")
        }
    }

    /// Returns once a connection to `port` on loopback succeeds; throws after 20 s.
    private static func waitUntilListening(_ port: Int) async throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if LoopbackPort.canConnect(port) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ToolError(description: "the loopback file server did not listen on port \(port) within 20 s")
    }
}
