import Foundation

/// Small synthetic media files made with Debian's ffmpeg for tests: test patterns with a tone.
public struct SyntheticClip: Sendable, Hashable {
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
    /// The lavfi video source; `testsrc2` by default. `SIZE`, `RATE` and `DURATION` are filled in.
    public var videoSource = "testsrc2=size=SIZE:rate=RATE:duration=DURATION"
    /// A `rotate` tag set on the video stream afterwards, which the mp4 muxer stores as a display matrix.
    public var rotationTag: Int?
    /// The video encoder and its options.
    public var videoCodec = ["-c:v", "libx264", "-preset", "ultrafast"]

    public init(width: Int, height: Int, duration: Double = 8, hasAudio: Bool = true) {
        self.width = width
        self.height = height
        self.duration = duration
        self.hasAudio = hasAudio
    }

    /// Writes the clip into `directory` and returns its path: a copy of the same clip made earlier in this test
    /// run, or a new one.
    public func make(in directory: URL, name: String = "clip") async throws -> String {
        let path = directory.appendingPathComponent("\(name).\(container)").path
        try await MadeClips.shared.copy(of: self, to: path)
        return path
    }

    /// Encodes the clip at `path` with ffmpeg.
    func encode(to path: String) async throws {
        let source = videoSource.replacingOccurrences(of: "SIZE", with: "\(width)x\(height)")
            .replacingOccurrences(of: "RATE", with: frameRate).replacingOccurrences(of: "DURATION", with: "\(duration)")
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", source]
        if hasAudio {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(duration)"]
        }
        arguments += videoCodec + ["-pix_fmt", pixelFormat]
        if hasAudio { arguments += ["-c:a", "aac", "-b:a", "96k"] }
        guard let rotationTag else {
            try await ExternalTool.require("ffmpeg", arguments + extraArguments + [path])
            return
        }
        let unrotated = "\(path)-unrotated.\(container)"
        try await ExternalTool.require("ffmpeg", arguments + extraArguments + [unrotated])
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-y", "-i", unrotated, "-c", "copy",
                                            "-metadata:s:v:0", "rotate=\(rotationTag)", path])
        try FileManager.default.removeItem(atPath: unrotated)
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
