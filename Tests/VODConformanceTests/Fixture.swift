import Foundation

/// Runs a command-line tool (ffmpeg, ffprobe) and returns its standard output; throws when it fails.
func run(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw FixtureError(message: "\(tool) \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
    }
    return String(decoding: data, as: UTF8.self)
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A new empty folder under the system temporary folder.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vod-conformance-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Owns a temporary folder and removes it when released.
final class FolderLease: Sendable {
    private let folder: URL

    init(_ folder: URL) {
        self.folder = folder
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// How one rung of a test title is encoded by ffmpeg.
struct RungSpec: Sendable {
    var name: String
    var width: Int
    var height: Int
    var profile = "high"
    var gop = 60
    var hlsTime = 6
    var seconds = 8
    var audio = true
    /// The colour tags x264 writes into the SPS VUI: BT.709, as the rules require.
    var colour = ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]
    var extra: [String] = []

    /// ffmpeg arguments that encode the rung as HLS into `folder/name/`.
    func arguments(in folder: URL) -> [String] {
        let dir = folder.appendingPathComponent(name).path
        var args = ["-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30"]
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"] }
        args += ["-t", String(seconds), "-c:v", "libx264", "-profile:v", profile, "-preset", "veryfast",
                 "-g", String(gop), "-keyint_min", String(gop), "-sc_threshold", "0"]
        if audio { args += ["-c:a", "aac", "-ar", "48000", "-ac", "2"] }
        args += colour + extra
        args += ["-f", "hls", "-hls_time", String(hlsTime), "-hls_playlist_type", "vod",
                 "-hls_segment_filename", dir + "/segment_%03d.ts", dir + "/index.m3u8"]
        return args
    }
}

/// The bytes a string of hex digits spells, two digits a byte, such as a NAL unit copied from a trace.
func hex(_ text: String) -> [UInt8] {
    stride(from: 0, to: text.count, by: 2).map { start in
        UInt8(text.dropFirst(start).prefix(2), radix: 16)!
    }
}
