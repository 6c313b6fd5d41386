import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODFFmpeg
import VODTestSupport

/// Constant quality capped at each rung's bitrate (`RateControl.quality`), its CRF chosen per title by
/// `QualityAnalysis`, against the fixed bitrates of `RateControl.fixed`: real encodes of a static slide and of a
/// noisy, detailed picture at the same rung.
@Suite("Rate control", .serialized, .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct RateControlTests {
    static let rung = Rung(name: "360p", width: 640, height: 360, bitrate: 600_000)
    static let ladder = [rung]

    /// A still SMPTE test card: what a slide or a screen recording looks like to the encoder.
    static func slide(in directory: URL) async throws -> String {
        var clip = SyntheticClip(width: 640, height: 360, duration: 8, hasAudio: false)
        clip.videoSource = "smptebars=size=SIZE:rate=RATE:duration=DURATION"
        clip.videoCodec = ["-c:v", "libx264", "-preset", "ultrafast", "-qp", "0"]
        return try await clip.make(in: directory, name: "slide")
    }

    /// A moving test pattern under strong temporal noise: more detail than any rung's cap can carry.
    static func noise(in directory: URL) async throws -> String {
        var clip = SyntheticClip(width: 640, height: 360, duration: 8, hasAudio: false)
        clip.videoSource = "testsrc2=size=SIZE:rate=RATE:duration=DURATION,noise=alls=40:allf=t"
        clip.videoCodec = ["-c:v", "libx264", "-preset", "ultrafast", "-qp", "0"]
        return try await clip.make(in: directory, name: "noise")
    }

    @Test func aSlideGetsFarFewerBitsThanNoiseAndBothStayUnderTheirCap() async throws {
        let directory = try TemporaryDirectory()
        let slide = try await Self.slide(in: directory.url)
        let noise = try await Self.noise(in: directory.url)
        let options = TranscodeOptions(ladder: Self.ladder, preset: "veryfast", rateControl: .quality)
        let quiet = try await Self.transcode(slide, options: options, into: directory.url.appendingPathComponent("slide"))
        let busy = try await Self.transcode(noise, options: options, into: directory.url.appendingPathComponent("noise"))

        let quietAnalysis = try #require(quiet.result.qualityAnalysis)
        let busyAnalysis = try #require(busy.result.qualityAnalysis)
        #expect(quietAnalysis.trials.count == 2 && busyAnalysis.trials.count == 2)
        #expect(quietAnalysis.crf == QualityAnalysis.range.upperBound, "a still picture keeps its SSIM at the highest CRF: \(quietAnalysis)")
        #expect(busyAnalysis.crf < quietAnalysis.crf, "noise needs a lower CRF: \(busyAnalysis)")
        for title in [quiet, busy] {
            let variant = title.variant
            #expect(variant.rateControl == .quality && variant.crf == title.result.qualityAnalysis?.crf)
            #expect(Double(variant.bandwidth) <= 1.1 * Double(Self.rung.bitrate),
                    "the measured peak \(variant.bandwidth) stays within 10 % of the 600 kb/s cap")
            #expect(title.encoderSettings == ["crf=\(String(format: "%.1f", variant.crf ?? -1)) vbv_maxrate=540 vbv_bufsize=600"],
                    "every segment's encoder ran at the title's CRF under the rung's cap: \(title.encoderSettings)")
        }
        #expect(busy.variant.averageBandwidth >= 5 * quiet.variant.averageBandwidth,
                "noise \(busy.variant.averageBandwidth) b/s against a slide's \(quiet.variant.averageBandwidth) b/s")
        // The band: a slide keeps the analysis's target; noise is bounded by the cap alone, as at a fixed rate.
        #expect(quiet.ssim >= QualityAnalysis.targetSSIM, "slide SSIM \(quiet.ssim)")
        #expect(busy.ssim >= 0.15 && busy.ssim <= 0.30, "noise SSIM \(busy.ssim)")

        let fixed = TranscodeOptions(ladder: Self.ladder, preset: "veryfast", rateControl: .fixed)
        let quietFixed = try await Self.transcode(slide, options: fixed, into: directory.url.appendingPathComponent("slide-fixed"))
        let busyFixed = try await Self.transcode(noise, options: fixed, into: directory.url.appendingPathComponent("noise-fixed"))
        for title in [quietFixed, busyFixed] {
            #expect(title.variant.rateControl == .fixed && title.variant.crf == nil && title.result.qualityAnalysis == nil)
            #expect(title.encoderSettings == ["bitrate=600 vbv_maxrate=660 vbv_bufsize=1200"],
                    "the rung's bitrate, maxrate 1.1 × it, a 2 s buffer: \(title.encoderSettings)")
        }
        #expect(busyFixed.variant.averageBandwidth >= 600_000 && busyFixed.variant.averageBandwidth <= 720_000,
                "at a fixed rate noise gets the rung's bitrate, and MPEG-TS's overhead: \(busyFixed.variant.averageBandwidth)")
        #expect(quietFixed.variant.averageBandwidth >= 2 * quiet.variant.averageBandwidth,
                "a fixed rate spends \(quietFixed.variant.averageBandwidth) b/s on the slide, constant quality \(quiet.variant.averageBandwidth)")
        #expect(busy.ssim >= busyFixed.ssim - 0.03, "capped constant quality is about as good on noise: \(busy.ssim) against \(busyFixed.ssim)")
    }

    @Test func everyChunkOfASplitTitleEncodesAtTheTitlesCRF() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 30, hasAudio: false).make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let options = TranscodeOptions(ladder: SplitTitleTests.options.ladder, preset: "superfast", rateControl: .quality)
        let title = try #require(try SplitTitle.plan(input: clip, outputDirectory: output.path, options: options,
                                                     splitAfter: 20, chunkSeconds: 12, cancellation: CancellationFlag()))
        let crf = try #require(title.qualityAnalysis?.crf)
        #expect(title.chunks.count == 3)
        #expect(title.chunks.allSatisfy { $0.rungs.map(\.crf) == [crf, crf] }, "every chunk carries the title's CRF")
        let decoded = try ChunkSpec(json: try title.chunks[1].json)
        #expect(decoded.rungs.map(\.crf) == [crf, crf], "as the queue stores it")
        try await title.encodeTracks(cancellation: CancellationFlag())
        for chunk in title.chunks {
            try await Transcoder(options: options).encodeChunk(input: clip, outputDirectory: output.path, chunk: chunk)
        }
        let result = try title.finish()
        #expect(result.qualityAnalysis == title.qualityAnalysis)
        #expect(result.variants.map(\.crf) == [crf, crf] && result.variants.allSatisfy { $0.rateControl == .quality })
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        for rung in ["360p", "240p"] {
            let settings = try await Self.encoderSettings(ofRendition: output.appendingPathComponent(rung))
            #expect(settings.count == 1 && settings.first?.hasPrefix("crf=\(String(format: "%.1f", crf)) ") == true,
                    "\(rung): every chunk's encoder at the title's CRF: \(settings)")
        }
    }

    @Test func aTitlePublishedAsItGrowsStartsAtTheDefaultCRFAndTakesItsOwnAtTheSecondSegment() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 8, hasAudio: false).make(in: directory.url)
        let published = directory.url.appendingPathComponent("published")
        let options = TranscodeOptions(ladder: Self.ladder, preset: "veryfast", rateControl: .quality)
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: published.path, onPublish: { _ in })
        let analysis = try #require(result.qualityAnalysis)
        #expect(analysis.crf >= 26 && result.variants.map(\.crf) == [analysis.crf], "\(analysis)")
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        let folder = published.appendingPathComponent(Self.rung.name)
        #expect(try await Self.encoderSettings(of: folder.appendingPathComponent("segment_000.ts")) == ["crf=23.0 vbv_maxrate=540 vbv_bufsize=600"],
                "the first segment waits for no analysis")
        #expect(try await Self.encoderSettings(of: folder.appendingPathComponent("segment_001.ts")) == [],
                "one encoder runs on, and takes the title's CRF")

        let atDefault = directory.url.appendingPathComponent("default")
        _ = try await Transcoder(options: TranscodeOptions(ladder: Self.ladder, preset: "veryfast", rateControl: .quality, crf: RateControl.defaultCRF))
            .transcode(input: clip, outputDirectory: atDefault.path, onPublish: { _ in })
        let size = { (folder: URL) in
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("\(Self.rung.name)/segment_001.ts").path)[.size] as? Int ?? 0
        }
        let (own, standard) = (try size(published), try size(atDefault))
        #expect(Double(own) <= 0.85 * Double(standard), "the second segment at CRF \(analysis.crf): \(own) bytes, at CRF 23 \(standard)")
    }

    @Test func theCRFIsWhereTheLineThroughTheTrialsReachesTheTarget() {
        typealias Trial = QualityChoice.Trial
        let target = QualityAnalysis.targetSSIM
        #expect(QualityAnalysis.crf(between: Trial(crf: 25, ssim: target + 0.01), and: Trial(crf: 32, ssim: target - 0.01)) == 28.5)
        #expect(QualityAnalysis.crf(between: Trial(crf: 25, ssim: target - 0.02), and: Trial(crf: 18, ssim: target)) == 18)
        #expect(QualityAnalysis.crf(between: Trial(crf: 25, ssim: 0.999), and: Trial(crf: 32, ssim: 0.995)) == 32,
                "a picture that keeps the target everywhere gets the fewest bits")
        #expect(QualityAnalysis.crf(between: Trial(crf: 25, ssim: 0.5), and: Trial(crf: 18, ssim: 0.6)) == 18,
                "one that misses it everywhere gets the most the cap allows")
        #expect(QualityAnalysis.crf(between: Trial(crf: 25, ssim: 0.2678), and: Trial(crf: 18, ssim: 0.2677)) == 18,
                "nor does noise whose SSIM the cap holds still")
    }

    /// At constant quality the maxrate leaves room for MPEG-TS's overhead only where the rung is MPEG-TS.
    @Test func theCapLeavesRoomForMPEGTSOnlyInMPEGTS() {
        let rung = PlannedRung(name: "360p", width: 640, height: 360, bitrate: 600_000, crf: 23)
        #expect(rung.maximumBitrate(framesPerSecond: 30, format: .ts) == 540_000)
        #expect(rung.maximumBitrate(framesPerSecond: 30, format: .fmp4) == 570_000)
        #expect(rung.at(crf: nil).maximumBitrate(framesPerSecond: 30, format: .fmp4) == 660_000, "a fixed rate's maxrate is 1.1 ×")
    }

    @Test func theBufferGetsSmallerFromThePictureAfterTheLastKeyframe() {
        let frameRate = FrameRate(source: Rational(30, 1), keyframeInterval: 2)
        #expect([300, 241, 240, 61, 60, 2].map { RungEncoder.closingFrame(before: $0, frameRate: frameRate) } == [241, 241, 181, 61, nil, nil])
    }

    @Test func theSamplesAreAboutFourPercentOfTheTitleFromUpToThreePlaces() {
        let rate = FrameRate(source: Rational(30, 1), keyframeInterval: 2)
        #expect(QualityAnalysis.windows(total: 240, frameRate: rate) == [114..<126], "8 s: the 12-frame minimum, in the middle")
        #expect(QualityAnalysis.windows(total: 1200, frameRate: rate) == [192..<208, 592..<608, 992..<1008],
                "40 s: 48 frames, 16 in the middle of each third")
        #expect(QualityAnalysis.windows(total: 108_000, frameRate: rate).map(\.count) == [20, 20, 20], "at most 2 s in all")
        #expect(QualityAnalysis.windows(total: 10, frameRate: rate) == [0..<10], "a title shorter than the samples is sampled whole")
        #expect(QualityAnalysis.windows(total: 0, frameRate: rate).isEmpty)
    }

    @Test func aSampleStartsAtTheSourcesNextKeyframeSoThatNothingBeforeItIsDecoded() async throws {
        let directory = try TemporaryDirectory()
        func firstFrames(keyframeEvery interval: Int, windows: [Range<Int64>]) async throws -> [Int64?] {
            var clip = SyntheticClip(width: 160, height: 90, duration: 8, hasAudio: true)
            clip.videoCodec = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "\(interval)", "-keyint_min", "\(interval)",
                               "-sc_threshold", "0", "-bf", "2"]
            let path = try await clip.make(in: directory.url, name: "gop\(interval)")
            let options = TranscodeOptions(ladder: Self.ladder)
            let file = try MediaProber.open(path: path, cancellation: CancellationFlag())
            let timelineStart = try SourceStage(input: file, options: options).findTimelineStart()
            let stream = try #require(MediaProber.pictureStream(of: file))
            return try windows.map { window in
                try QualityAnalysis.keyframe(in: file, stream: stream, from: window, before: 240,
                                             timelineStart: timelineStart, frameRate: FrameRate(of: file, options: options))
            }
        }
        #expect(try await firstFrames(keyframeEvery: 90, windows: [114..<126, 0..<12, 90..<102, 200..<212]) == [180, 0, 90, nil],
                "keyframes every 3 s: the middle window moves to the next one, a window on one stays, none fits after 6.7 s")
        #expect(try await firstFrames(keyframeEvery: 1, windows: [114..<126, 228..<240]) == [114, 228],
                "every picture a keyframe: the windows stay where they were planned")
    }

    /// A transcoded title of one rung, with its SSIM against the source and what x264 says its settings were.
    struct Title {
        let result: TranscodeResult
        let ssim: Double
        /// The rate control settings x264 wrote into each segment's first picture, without repeats.
        let encoderSettings: Set<String>
        var variant: VariantSummary { result.variants[0] }
    }

    static func transcode(_ clip: String, options: TranscodeOptions, into output: URL) async throws -> Title {
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path)
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [],
                "vod validate passes")
        let folder = output.appendingPathComponent(rung.name)
        let settings = try await encoderSettings(ofRendition: folder)
        let ssim = try await Self.ssim(folder.appendingPathComponent("index.m3u8").path, against: clip)
        return Title(result: result, ssim: ssim, encoderSettings: settings)
    }

    /// The rate control part of the x264 settings SEI in a segment's H.264 stream: `crf=… vbv_maxrate=…
    /// vbv_bufsize=…` at constant quality, `bitrate=… vbv_maxrate=… vbv_bufsize=…` at a fixed rate; one entry
    /// per encoder that started in the segment.
    static func encoderSettings(of segment: URL) async throws -> [String] {
        let stream = segment.deletingPathExtension().appendingPathExtension("h264")
        defer { try? FileManager.default.removeItem(at: stream) }
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-y", "-i", segment.path, "-map", "0:v", "-c", "copy",
                                                  "-f", "h264", stream.path])
        let text = String(decoding: try Data(contentsOf: stream), as: UTF8.self)
        return text.components(separatedBy: " rc=").dropFirst().map { options in
            let fields = options.split(separator: " ").prefix(12).map(String.init)
            return fields.filter { $0.hasPrefix("crf=") || $0.hasPrefix("bitrate=") || $0.hasPrefix("vbv_") }
                .joined(separator: " ")
        }
    }

    /// The settings of every segment of a rendition's folder, without repeats.
    static func encoderSettings(ofRendition folder: URL) async throws -> Set<String> {
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ts") }
        var settings: Set<String> = []
        for segment in segments { settings.formUnion(try await encoderSettings(of: folder.appendingPathComponent(segment))) }
        return settings
    }

    /// The SSIM (all planes) of a rendition against the source, at the same size.
    static func ssim(_ rendition: String, against source: String) async throws -> Double {
        let output = try await ExternalTool.require("ffmpeg", [
            "-hide_banner", "-nostdin", "-nostats", "-i", rendition, "-i", source, "-lavfi",
            "[0:v]setpts=PTS-STARTPTS[d];[1:v]setpts=PTS-STARTPTS[r];[d][r]ssim", "-f", "null", "-",
        ])
        let line = try #require(output.standardError.components(separatedBy: "\n").last { $0.contains("All:") })
        let value = try #require(line.components(separatedBy: "All:").last?.split(separator: " ").first)
        return try #require(Double(value))
    }
}
