import Foundation
import Testing

/// Debian's ffmpeg's EBU R128 measurement (`ebur128=peak=true`) of a file's first audio stream, as an independent
/// meter would give it.
public struct EBUR128: Sendable, CustomStringConvertible {
    /// The integrated loudness, in LUFS.
    public var integrated: Double
    /// The loudness range, in LU.
    public var range: Double
    /// The highest true peak, in dBTP.
    public var truePeak: Double

    public var description: String {
        String(format: "%.1f LUFS, range %.1f LU, true peak %.1f dBTP", integrated, range, truePeak)
    }

    /// Measures the first audio stream of `path`, a file or a playlist.
    public static func measure(_ path: String) async throws -> EBUR128 {
        let run = try await ExternalTool.require("ffmpeg", [
            "-hide_banner", "-nostats", "-i", path, "-map", "0:a:0", "-af", "ebur128=peak=true", "-f", "null", "-",
        ])
        let summary = try #require(run.standardError.components(separatedBy: "Summary:").last)
        func value(_ label: String) throws -> Double {
            let line = try #require(summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
            return try #require(line.split(separator: " ").dropFirst().lazy.compactMap { Double($0) }.first)
        }
        return EBUR128(integrated: try value("I:"), range: try value("LRA:"), truePeak: try value("Peak:"))
    }
}
