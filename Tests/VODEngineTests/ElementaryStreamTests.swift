import Foundation
import Testing
import VODEngine
import VODTestSupport

/// Raw elementary streams, with no container and so no timestamps, are decoded whole, timed from their frame rate.
@Suite("Elementary streams", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(5)))
struct ElementaryStreamTests {
    /// A broadcast contribution stream (field-coded 10-bit 4:2:2 H.264), HEVC and MPEG-2, each 2 s at 25 fps.
    @Test(arguments: [
        ("contribution.h264", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv422p10le", "-flags", "+ildct+ilme", "-x264opts", "tff=1", "-f", "h264"]),
        ("clip.hevc", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-f", "hevc"]),
        ("clip.m2v", ["-c:v", "mpeg2video", "-f", "mpeg2video"]),
    ])
    func anElementaryStreamIsDecodedWhole(name: String, encoding: [String]) async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.url.appendingPathComponent(name).path
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"]
            + encoding + [clip])
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map { "\($0.width)x\($0.height) \($0.frameRate)" } == ["320x240 25.0"])
        #expect(abs(result.duration - 2) < 0.05, "every picture, 25 a second: \(result.duration)")
        let frames = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
            result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("240p/index.m3u8").path,
        ]).standardOutput.split(separator: "\n").first
        #expect(frames == "50")
    }
}
