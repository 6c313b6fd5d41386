import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODTestSupport

/// HDR, interlaced, full-range and SD sources come out as a viewer expects on an SDR screen: BT.709 limited
/// range, tone-mapped, progressive, square pixels.
@Suite("Real-world pictures", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct RealPictureTests {
    @Test(arguments: ["arib-std-b67", "smpte2084"])
    func hdrIsToneMappedToBT709(transfer: String) async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.hdr(transfer: transfer).make(in: directory.url)
        let probe = try MediaProber.probe(path: clip)
        #expect(probe.source?.hdr == (transfer == "smpte2084" ? .pq : .hlg))
        #expect(probe.source?.bitDepth == 10)

        let result = try await transcodeAndPlay(clip, in: directory, hdr: .sdr)
        let segment = result.segment(result.variants[0].name)
        let tags = try await PictureMeasurements.tags(of: segment)
        #expect([tags.primaries, tags.transfer, tags.matrix, tags.range] == ["bt709", "bt709", "bt709", "tv"])
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(master.components(separatedBy: "VIDEO-RANGE=SDR").count - 1 == result.variants.filter { $0.codecs.hasPrefix("avc1") }.count)

        // Copying the HDR code values into 8-bit H.264 is what looks grey and washed out.
        let retagged = try await PictureMeasurements.meanSaturation(of: clip, filters: "format=yuv420p")
        let ours = try await PictureMeasurements.meanSaturation(of: segment)
        #expect(ours > 1.5 * retagged, "tone-mapped saturation \(ours) against \(retagged) for a plain re-tag")
    }

    @Test func interlaced1080iIsDeinterlaced() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.interlaced(duration: 2).make(in: directory.url)
        #expect(try MediaProber.probe(path: clip).source?.interlaced == true)
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map(\.frameRate) == [25, 25])
        try await expectNoCombing(in: result, comparedWith: clip)
    }

    @Test func dvTapeFlaggedOnlyInItsFramesIsDeinterlacedWithSquarePixels() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.dv().make(in: directory.url)
        #expect(try MediaProber.probe(path: clip).source?.interlaced == false, "the container says nothing")
        let result = try await transcodeAndPlay(clip, in: directory)
        // 720×576 at SAR 16:15 is shown 768×576.
        #expect(result.variants.map { "\($0.width)x\($0.height)" } == ["768x576"])
        #expect(try await PictureMeasurements.tags(of: result.segment("576p")).sampleAspectRatio == "1:1")
        try await expectNoCombing(in: result, comparedWith: clip)
    }

    @Test func fullRangeIsConvertedToLimitedRange() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 640, height: 360, duration: 2)
        source.videoSource = "smptebars=size=SIZE:rate=RATE:duration=DURATION"
        source.videoCodec = ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:range=full"]
        source.extraArguments = ["-vf", "scale=out_range=full", "-color_range", "pc"]
        let clip = try await source.make(in: directory.url)
        #expect(try await PictureMeasurements.tags(of: clip).range == "pc")
        let result = try await transcodeAndPlay(clip, in: directory)
        let segment = result.segment("360p")
        #expect(try await PictureMeasurements.tags(of: segment).range == "tv")
        try await expectSamePicture(segment, clip, width: 640, height: 360, comparedWithRetag: true)
    }

    @Test func bt601StandardDefinitionBecomesBT709() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 640, height: 480, duration: 2)
        source.videoSource = "smptebars=size=SIZE:rate=RATE:duration=DURATION"
        source.extraArguments = ["-vf", "scale=out_color_matrix=bt601", "-colorspace", "smpte170m",
                                 "-color_primaries", "smpte170m", "-color_trc", "smpte170m"]
        let clip = try await source.make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let segment = result.segment("480p")
        let tags = try await PictureMeasurements.tags(of: segment)
        #expect([tags.primaries, tags.transfer, tags.matrix] == ["bt709", "bt709", "bt709"])
        // The reference is the ffmpeg CLI converting the source to BT.709 (primaries, matrix) with zscale.
        try await expectSamePicture(segment, clip, width: 640, height: 480,
                              reference: "zscale=pin=170m:min=170m:tin=601:p=709:m=709:t=709,", comparedWithRetag: true)
    }

    /// Pixel formats and containers that cameras, editors and capture cards write all come out as BT.709
    /// limited-range 8-bit 4:2:0 that shows the same picture.
    @Test(arguments: [
        ("avi", ["-c:v", "mjpeg", "-q:v", "2"], "yuvj422p"),
        ("mkv", ["-c:v", "rawvideo"], "nv12"),
        ("mkv", ["-c:v", "ffv1"], "gray"),
        ("mkv", ["-c:v", "ffv1"], "rgb48le"),
        ("mov", ["-c:v", "prores_ks"], "yuva444p10le"),
        ("mpg", ["-c:v", "mpeg2video", "-q:v", "2", "-flags", "+ildct+ilme", "-top", "0"], "yuv420p"),
    ])
    func cameraAndEditorPixelFormatsBecomeBT709(container: String, codec: [String], pixelFormat: String) async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 320, height: 240, duration: 1, hasAudio: false)
        source.videoSource = "smptebars=size=SIZE:rate=RATE:duration=DURATION"
        source.container = container
        source.videoCodec = codec
        source.pixelFormat = pixelFormat
        let clip = try await source.make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let segment = result.segment("240p")
        let tags = try await PictureMeasurements.tags(of: segment)
        #expect([tags.matrix, tags.range, tags.fieldOrder] == ["bt709", "tv", "progressive"])
        try await expectSamePicture(segment, clip, width: 320, height: 240)
    }

    /// The rendition's first picture, turned into RGB by ffmpeg by its tags, matches the source's: the tags
    /// tell the truth about the pixels. With `comparedWithRetag`, also checks that the measure tells this apart from a plain re-tag of the
    /// source's pixels as BT.709 limited range, which is what the conversion is for.
    private func expectSamePicture(
        _ segment: String, _ clip: String, width: Int, height: Int, reference: String = "", comparedWithRetag: Bool = false
    ) async throws {
        let filters = "scale=\(width):\(height)"
        let ours = try await PictureMeasurements.rawFrames(["-i", segment], filters: filters, format: "rgb24")
        let source = try await PictureMeasurements.rawFrames(["-i", clip], filters: reference + filters, format: "rgb24")
        let difference = PictureMeasurements.meanDifference(ours, source)
        #expect(ours.count == width * height * 3 && ours.count == source.count)
        #expect(difference < 3, "mean RGB difference \(difference)")
        guard comparedWithRetag else { return }
        // What a plain re-tag would show: the source's pixels read as BT.709 limited range.
        let misread = try await PictureMeasurements.rawFrames(
            ["-i", clip], filters: "scale=\(width):\(height):in_color_matrix=bt709:in_range=tv", format: "rgb24")
        #expect(PictureMeasurements.meanDifference(misread, source) > 2 * difference + 2, "the measure can tell")
    }

    /// Every rung's pictures comb far less than the source's woven fields shown as they are.
    private func expectNoCombing(in result: TranscodeResult, comparedWith clip: String) async throws {
        for variant in result.variants {
            let size = (width: variant.width, height: variant.height)
            let woven = try await PictureMeasurements.combing(of: ["-i", clip], width: size.width, height: size.height)
            let ours = try await PictureMeasurements.combing(of: ["-i", result.segment(variant.name)],
                                                       width: size.width, height: size.height)
            let progressive = try await PictureMeasurements.combing(
                of: ["-i", clip, "-vf", "bwdif=deint=all"], width: size.width, height: size.height)
            #expect(ours < woven / 2, "\(variant.name): combing \(ours) against \(woven) woven")
            #expect(ours < progressive * 1.5 + 1, "\(variant.name): combing \(ours) against \(progressive) for ffmpeg's bwdif")
            let tags = try await PictureMeasurements.tags(of: result.segment(variant.name))
            #expect(tags.fieldOrder == "progressive")
        }
    }
}

/// Dolby Vision as phones and masters carry it: a base layer that is tone-mapped, or none at all.
@Suite("Dolby Vision", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct DolbyVisionTests {
    @Test func profile84ThroughItsHLGBaseLayerIsToneMapped() async throws {
        let directory = try TemporaryDirectory()
        let base = try await SyntheticClip.hdr(transfer: "arib-std-b67").make(in: directory.url, name: "base")
        let clip = directory.url.appendingPathComponent("dolby-vision-8.4.mp4").path
        try DolbyVisionFixture.make(from: base, to: clip, profile: 8, compatibility: 4)
        #expect(try MediaProber.probe(path: clip).source?.hdr == .dolbyVision)

        let result = try await transcodeAndPlay(clip, in: directory, hdr: .sdr)
        let segment = result.segment(result.variants[0].name)
        let tags = try await PictureMeasurements.tags(of: segment)
        #expect([tags.primaries, tags.transfer, tags.matrix] == ["bt709", "bt709", "bt709"])
        let retagged = try await PictureMeasurements.meanSaturation(of: clip, filters: "format=yuv420p")
        #expect(try await PictureMeasurements.meanSaturation(of: segment) > 1.5 * retagged)
    }

    /// In an fMP4 title, the HLG base layer of a profile 8.4 source is kept for HDR screens.
    @Test func profile84KeepsItsHLGBaseLayerForHDRScreens() async throws {
        let directory = try TemporaryDirectory()
        let base = try await SyntheticClip.hdr(transfer: "arib-std-b67").make(in: directory.url, name: "base")
        let clip = directory.url.appendingPathComponent("dolby-vision-8.4.mp4").path
        try DolbyVisionFixture.make(from: base, to: clip, profile: 8, compatibility: 4)
        let result = try await Transcoder(options: HDRLadderTests.options(ladder: HDRLadderTests.oneRung))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        _ = try await HDRLadderTests.expectHDRRung(of: result, named: "360p-hdr", transfer: "arib-std-b67", range: "HLG", in: directory)
    }

    @Test func profile5WithoutABaseLayerIsRefusedWithAReason() async throws {
        let directory = try TemporaryDirectory()
        let base = try await SyntheticClip.hdr(transfer: "smpte2084", duration: 1).make(in: directory.url, name: "base")
        let clip = directory.url.appendingPathComponent("dolby-vision-5.mp4").path
        try DolbyVisionFixture.make(from: base, to: clip, profile: 5, compatibility: 0)
        let reason = "the video is Dolby Vision profile 5, which has no HDR10, HLG or SDR base layer; "
            + "its colours cannot be converted to SDR without Dolby's own processing"
        #expect(throws: MediaError.unsupported(reason)) { try MediaProber.probe(path: clip) }
        await #expect(throws: MediaError.unsupported(reason)) {
            try await Transcoder().transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        }
        #expect(try directory.entries() == ["base.mp4", "dolby-vision-5.mp4"], "nothing is left behind")
    }
}
