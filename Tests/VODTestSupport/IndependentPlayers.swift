import Foundation

/// Checks that independent clients — Debian's ffprobe, ffmpeg and GStreamer — can play a rendition.
public enum IndependentPlayers {
    /// One stream as ffprobe sees it.
    public struct ProbedStream: Decodable, Sendable {
        public var codec_type: String
        public var codec_name: String?
        public var profile: String?
        public var level: Int?
        public var width: Int?
        public var height: Int?
        public var sample_rate: String?
        public var channels: Int?
        public var r_frame_rate: String?
    }

    private struct ProbeOutput: Decodable {
        var streams: [ProbedStream]
    }

    /// The streams ffprobe finds at `url` (a path or an http URL).
    public static func streams(at url: String) async throws -> [ProbedStream] {
        let output = try await ExternalTool.require("ffprobe", ["-v", "error", "-show_streams", "-of", "json", url])
        return try JSONDecoder().decode(ProbeOutput.self, from: Data(output.standardOutput.utf8)).streams
    }

    /// Decodes every stream of program `program` of the master at `url` with ffmpeg and returns its error output,
    /// which is empty when every packet decoded cleanly.
    public static func decodeErrors(master url: String, program: Int) async throws -> String {
        let output = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", url, "-map", "0:p:\(program)", "-f", "null", "-"])
        return output.status == 0 ? output.standardError : "exit \(output.status): \(output.standardError)"
    }

    /// The number of programs (variants) ffprobe finds in a master playlist.
    public static func programCount(master url: String) async throws -> Int {
        let output = try await ExternalTool.require("ffprobe", ["-v", "error", "-show_programs", "-of", "json", url])
        struct Programs: Decodable { var programs: [Program] }
        struct Program: Decodable { var program_id: Int }
        return try JSONDecoder().decode(Programs.self, from: Data(output.standardOutput.utf8)).programs.count
    }

    /// Plays `uri` to the end with GStreamer into fake sinks; returns its exit status and errors. Over HTTP it
    /// plays with playbin3, which reads HLS with `hlsdemux2`, GStreamer's current demuxer (playbin's is the older
    /// `hlsdemux`, which twice hung for 120 s on a two-language title in CI and never in hundreds of runs here);
    /// a `file://` playlist, which GStreamer 1.22's `hlsdemux2` cannot download, plays with playbin. A player that
    /// does not end in time fails with the last lines of its demuxer's log, and one that fails has them after its
    /// standard error: GStreamer's own message ("Couldn't download fragments") does not say which stream or why.
    public static func gstreamerPlay(uri: String) async throws -> ExternalTool.Output {
        let player = uri.hasPrefix("http") ? "playbin3" : "playbin"
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gst-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let environment = ["GST_DEBUG": "hlsdemux:4,hlsdemux2:4,adaptivedemux2:4,souphttpsrc:4", "GST_DEBUG_NO_COLOR": "1",
                           "GST_DEBUG_FILE": log.path]
        let logTail = { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(60).joined(separator: "\n") }
        do {
            var output = try await ExternalTool.run("gst-launch-1.0", ["-q", player, "uri=\(uri)", "video-sink=fakesink", "audio-sink=fakesink"],
                                                    environment: environment, timeout: 120)
            if output.status != 0 { output.standardError += "\nits log ends:\n\(logTail())" }
            return output
        } catch let error as ToolError {
            throw ToolError(description: "\(error.description); its log ends:\n\(logTail())")
        }
    }
}
