import Foundation
import Testing
import VODEngine
import VODTestSupport

/// Animated GIFs and PNGs, as people upload them, become silent video titles with the animation's picture and
/// timing.
@Suite("Animated images", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(5)))
struct AnimatedImageTests {
    @Test(arguments: ["gif", "apng"])
    func anAnimationBecomesASilentVideoTitle(format: String) async throws {
        let directory = try TemporaryDirectory()
        let animation = directory.url.appendingPathComponent("animation.\(format)").path
        // Half white, half black, 3 s at 10 frames per second; the GIF through a palette, as GIF encoders write.
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-t", "3", "-i", "color=white:size=320x240:rate=10",
            "-vf", "drawbox=y=120:w=320:h=120:color=black:t=fill"
                + (format == "gif" ? ",split[a][b];[a]palettegen[p];[b][p]paletteuse" : ""),
            "-f", format, animation,
        ])
        let probe = try MediaProber.probe(path: animation)
        #expect(probe.audio == nil)

        let result = try await transcodeAndPlay(animation, in: directory)
        #expect(result.variants.map { "\($0.width)x\($0.height) \($0.codecs)" } == ["320x240 avc1.64000c"])
        #expect(abs(try result.playlistDuration() - 3) < 0.15, "the animation's 3 s")
        let ours = try await grayFrame(["-i", result.segment(result.variants[0].name)])
        let expected = try await grayFrame(["-i", animation])
        #expect(ours.count == 320 * 240 && expected.count == ours.count)
        #expect(meanDifference(ours, expected) < 8, "the picture is the animation's, as ffmpeg decodes it")
    }
}
