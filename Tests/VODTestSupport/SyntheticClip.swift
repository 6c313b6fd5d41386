import Foundation

/// Small synthetic media files made with Debian's ffmpeg for tests: test patterns with a tone.
public struct SyntheticClip: Sendable {
    public var width: Int
    public var height: Int
    public var frameRate: String = "30"
    public var duration: Double = 8
    public var hasAudio = true
    public var pixelFormat = "yuv420p"
    /// Extra ffmpeg output arguments, such as `-metadata:s:v rotate=90`.
    public var extraArguments: [String] = []
    /// The file extension, which picks the container.
    public var container = "mp4"

    public init(width: Int, height: Int, duration: Double = 8, hasAudio: Bool = true) {
        self.width = width
        self.height = height
        self.duration = duration
        self.hasAudio = hasAudio
    }

    /// Writes the clip into `directory` and returns its path.
    public func make(in directory: URL, name: String = "clip") throws -> String {
        let path = directory.appendingPathComponent("\(name).\(container)").path
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i",
                         "testsrc2=size=\(width)x\(height):rate=\(frameRate):duration=\(duration)"]
        if hasAudio {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(duration)"]
        }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", pixelFormat]
        if hasAudio { arguments += ["-c:a", "aac", "-b:a", "96k"] }
        arguments += extraArguments + [path]
        try ExternalTool.require("ffmpeg", arguments)
        return path
    }
}

/// A temporary folder removed when the value is dropped.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vod-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The names of the entries directly inside the folder, hidden ones included.
    public func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
