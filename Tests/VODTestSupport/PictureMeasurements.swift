import Foundation

/// What a viewer would see in a video file, measured by Debian's ffmpeg and ffprobe: colour tags, saturation,
/// interlacing and pixels.
public enum PictureMeasurements {
    /// The colour and field tags of the first video stream, as ffprobe names them.
    public struct Tags: Sendable, Equatable {
        public var primaries: String
        public var transfer: String
        public var matrix: String
        public var range: String
        public var fieldOrder: String
        public var sampleAspectRatio: String
        public var width: Int
        public var height: Int
    }

    /// The tags of the first video stream of `path`.
    public static func tags(of path: String) async throws -> Tags {
        let fields = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "stream=color_primaries,color_transfer,color_space,color_range,field_order,sample_aspect_ratio,width,height",
            "-of", "default=noprint_wrappers=1", path,
        ]).standardOutput.split(separator: "\n").reduce(into: [String: String]()) { fields, line in
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return Tags(
            primaries: fields["color_primaries"] ?? "", transfer: fields["color_transfer"] ?? "",
            matrix: fields["color_space"] ?? "", range: fields["color_range"] ?? "",
            fieldOrder: fields["field_order"] ?? "", sampleAspectRatio: fields["sample_aspect_ratio"] ?? "",
            width: Int(fields["width"] ?? "") ?? 0, height: Int(fields["height"] ?? "") ?? 0
        )
    }

    /// The mean saturation (signalstats SATAVG) over every frame of `path`, scaled to 640 pixels wide.
    /// `filters` go before the measurement, such as a colour conversion for a reference.
    public static func meanSaturation(of path: String, filters: String? = nil) async throws -> Double {
        let chain = [filters, "scale=640:-2", "signalstats", "metadata=print:key=lavfi.signalstats.SATAVG:file=-"]
            .compactMap { $0 }.joined(separator: ",")
        let values = try await ExternalTool.require("ffmpeg", ["-v", "error", "-i", path, "-vf", chain, "-f", "null", "-"])
            .standardOutput.split(separator: "\n").compactMap { line -> Double? in
                guard line.hasPrefix("lavfi.signalstats.SATAVG=") else { return nil }
                return Double(line.dropFirst("lavfi.signalstats.SATAVG=".count))
            }
        guard !values.isEmpty else { throw ToolError(description: "signalstats measured no frame of \(path)") }
        return values.reduce(0, +) / Double(values.count)
    }

    /// The SSIM (all planes) of each picture of `path` against the same picture of `source` scaled (bicubic) to
    /// `width`×`height`, both from their first picture, in order: ffmpeg's `ssim` filter, one value per picture.
    public static func ssimPerPicture(of path: String, against source: String, width: Int, height: Int) async throws -> [Double] {
        let directory = try TemporaryDirectory()
        let statistics = directory.url.appendingPathComponent("ssim.log").path
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-i", path, "-i", source, "-lavfi",
            "[0:v]setpts=PTS-STARTPTS[d];[1:v]scale=\(width):\(height):flags=bicubic,setpts=PTS-STARTPTS[r];[d][r]ssim=stats_file=\(statistics)",
            "-f", "null", "-",
        ])
        let values = try String(contentsOfFile: statistics, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("All:") }.flatMap { Double($0.dropFirst("All:".count)) }
        }
        guard !values.isEmpty else { throw ToolError(description: "ssim measured no picture of \(path)") }
        return values
    }

    /// Line-to-line combing over the first `frames` frames at `width`×`height` in gray: the mean distance of
    /// each pixel from the average of the lines above and below. Woven fields of a moving picture score high;
    /// a deinterlaced picture scores like progressive video.
    public static func combing(of input: [String], width: Int, height: Int, frames: Int = 10) async throws -> Double {
        let pixels = try await rawFrames(input, filters: "scale=\(width):\(height):interl=0:flags=neighbor", format: "gray",
                                   frames: frames)
        let frameSize = width * height
        var total = 0
        var count = 0
        pixels.withUnsafeBufferPointer { pixels in
            for frame in stride(from: 0, to: pixels.count - frameSize + 1, by: frameSize) {
                for y in 1..<(height - 1) {
                    let row = frame + y * width
                    for x in 0..<width {
                        let above = Int(pixels[row - width + x])
                        let below = Int(pixels[row + width + x])
                        let difference = 2 * Int(pixels[row + x]) - above - below
                        total += difference < 0 ? -difference : difference
                    }
                }
            }
            count = 2 * width * (height - 2) * (pixels.count / frameSize)
        }
        return Double(total) / Double(max(count, 1))
    }

    /// The first `frames` frames of an input as raw pixels in `format`, decoded by ffmpeg after `filters`.
    public static func rawFrames(_ input: [String], filters: String, format: String, frames: Int = 1) async throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("frames.raw").path
        try await ExternalTool.require("ffmpeg", ["-v", "error"] + input + [
            "-vf", filters, "-frames:v", "\(frames)", "-f", "rawvideo", "-pix_fmt", format, path,
        ])
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The mean absolute difference of two pixel buffers of the same size.
    public static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(min(a.count, b.count), 1))
    }

    /// The codec, width and height of a picture file's first video stream, from ffprobe, such as
    /// `("mjpeg", 320, 180)`.
    public static func picture(_ path: String) async throws -> (codec: String, width: Int, height: Int) {
        let output = try await ExternalTool.require("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                          "stream=codec_name,width,height", "-of", "csv=p=0", path])
        let fields = output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        guard fields.count == 3, let width = Int(fields[1]), let height = Int(fields[2]) else { return ("", 0, 0) }
        return (fields[0], width, height)
    }
}

/// The real sample media of `../shared/media/` (see its README), read in place.
public enum SharedMedia {
    /// The folder, beside the project's checkout.
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/media")

    /// The path of the sample `name`.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
