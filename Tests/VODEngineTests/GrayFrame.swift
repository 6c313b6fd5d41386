import Foundation
import VODTestSupport

/// The first frame of an input as 8-bit gray pixels, decoded by ffmpeg.
func grayFrame(_ input: [String]) async throws -> [UInt8] {
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("frame.gray").path
    try await ExternalTool.require("ffmpeg", ["-v", "error"] + input + ["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", path])
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The mean absolute difference of two pictures' pixels.
func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(a.count, 1)
}
