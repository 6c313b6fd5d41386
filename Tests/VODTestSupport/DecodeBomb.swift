import Foundation

/// Files that would make a decoder allocate or work without bound, made with Debian's ffmpeg: pictures larger
/// than the service decodes, declared honestly by the stream itself (an H.264 SPS), many of them at once, one
/// appearing mid-stream, and a tiny file of a million pictures that has no duration.
public enum DecodeBomb: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A raw H.264 stream whose SPS (and picture) is 16000×16000.
    case hugeSPS = "sps-16000.h264"
    /// Eight such streams in one Matroska file.
    case eightHugeStreams = "eight-16000.mkv"
    /// A 320×240 raw H.264 stream that becomes 8000×8000 after four seconds.
    case growsMidStream = "grows-to-8000.h264"
    /// A raw H.264 stream of a million 16×16 pictures, all skipped after the first: 9 MB and no duration.
    case millionSkipFrames = "million-skips.h264"

    public var description: String { rawValue }

    /// Writes the file into `directory` and returns its path; the huge pictures are black, so the files are small.
    public func write(in directory: URL) async throws -> String {
        let url = directory.appendingPathComponent(rawValue)
        switch self {
        case .hugeSPS:
            try await Self.encode(lavfi: "color=black:s=16000x16000:r=25", frames: 1, to: url)
        case .eightHugeStreams:
            let raw = try await DecodeBomb.hugeSPS.write(in: directory)
            try await Self.ffmpeg(["-i", raw] + Array(repeating: ["-map", "0:v"], count: 8).flatMap { $0 } + ["-c", "copy", url.path])
        case .growsMidStream:
            let small = url.appendingPathExtension("small.h264")
            let large = url.appendingPathExtension("large.h264")
            try await Self.encode(lavfi: "testsrc2=s=320x240:r=25:d=4", frames: 100, to: small)
            try await Self.encode(lavfi: "color=black:s=8000x8000:r=25", frames: 2, to: large)
            try Data(contentsOf: small).appending(try Data(contentsOf: large)).write(to: url)
        case .millionSkipFrames:
            // A hundred thousand pictures encode in two seconds; ten copies, each from its own IDR, make a million.
            let part = url.appendingPathExtension("part.h264")
            try await Self.encode(lavfi: "color=black:s=16x16:r=25", frames: 100_000, to: part, keyframes: "keyint=infinite:scenecut=0")
            try Data(repeating: try Data(contentsOf: part), count: 10).write(to: url)
        }
        return url.path
    }

    private static func encode(lavfi: String, frames: Int, to url: URL, keyframes: String = "keyint=250") async throws {
        try await ffmpeg(["-f", "lavfi", "-i", lavfi, "-frames:v", "\(frames)", "-c:v", "libx264", "-preset", "ultrafast",
                          "-pix_fmt", "yuv420p", "-x264-params", keyframes, url.path])
    }

    private static func ffmpeg(_ arguments: [String]) async throws {
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-y"] + arguments)
    }
}

extension Data {
    /// `data` repeated `count` times.
    fileprivate init(repeating data: Data, count: Int) {
        self.init(capacity: data.count * count)
        for _ in 0..<count { append(data) }
    }

    fileprivate func appending(_ other: Data) -> Data {
        var joined = self
        joined.append(other)
        return joined
    }
}
