import Foundation
import Testing
import VODEngine
import VODTestSupport

/// Posters, storyboards and thumbnails taken from real renditions, checked with ffmpeg and ffprobe.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct StillsTests {
    static let ladder = [
        Rung(name: "720p", width: 1280, height: 720, bitrate: 1_500_000),
        Rung(name: "360p", width: 640, height: 360, bitrate: 400_000),
    ]

    /// 12 s of `testsrc2`, black until 1.8 s (15 %), then fading in over 4 s: the keyframes at 0 and 2 s are
    /// black or nearly, the one at 4 s is mid-fade, from 6 s on the picture is whole.
    static func transcodeFadingClip(width: Int, height: Int, in directory: TemporaryDirectory) async throws -> (clip: String, title: URL) {
        var clip = SyntheticClip(width: width, height: height, duration: 12, hasAudio: false)
        clip.videoSource = "testsrc2=size=SIZE:rate=RATE:duration=DURATION,fade=in:st=1.8:d=4"
        let path = try await clip.make(in: directory.url)
        let title = directory.url.appendingPathComponent("title")
        _ = try await Transcoder(options: TranscodeOptions(ladder: ladder, preset: "ultrafast"))
            .transcode(input: path, outputDirectory: title.path)
        return (path, title)
    }

    /// The mean and standard deviation of a picture's luma, decoded by ffmpeg to full-range gray.
    static func luma(_ input: [String], filters: String = "null") async throws -> (mean: Double, deviation: Double) {
        let pixels = try await PictureMeasurements.rawFrames(input, filters: filters, format: "gray")
        let mean = Double(pixels.reduce(0) { $0 + Int($1) }) / Double(pixels.count)
        let variance = pixels.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(pixels.count)
        return (mean, variance.squareRoot())
    }

    /// `[width, height]` of a JPEG file, from ffprobe.
    static func size(of path: String) async throws -> [Int] {
        let picture = try await PictureMeasurements.picture(path)
        #expect(picture.codec == "mjpeg")
        return [picture.width, picture.height]
    }

    @Test func posterSkipsBlackAndFadingKeyframesAndComesInEveryWidthTheRenditionAllows() async throws {
        let directory = try TemporaryDirectory()
        let (clip, title) = try await Self.transcodeFadingClip(width: 1280, height: 720, in: directory)
        let manifest = try #require(try Stills.write(titleFolder: title))
        let stills = title.appendingPathComponent("stills")

        #expect(manifest.posterTime >= 5.8, "after the black and the fade-in, not the 10 % keyframe (\(manifest.posterTime))")
        #expect(manifest.posters.map(\.width) == [320, 640, 1280])
        for poster in manifest.posters {
            #expect(try await Self.size(of: stills.appendingPathComponent(poster.file).path) == [poster.width, poster.width * 9 / 16])
        }
        #expect(try await Self.size(of: stills.appendingPathComponent("poster.jpg").path) == [1280, 720])

        let poster = try await Self.luma(["-i", stills.appendingPathComponent("poster_320.jpg").path])
        #expect(poster.mean > 60, "not black: \(poster)")
        #expect(poster.deviation > 20, "not flat: \(poster)")
        let whole = try await Self.luma(["-ss", "11", "-i", clip], filters: "scale=320:180")
        #expect(abs(poster.mean - whole.mean) < 0.08 * whole.mean, "as bright as the faded-in picture: \(poster) vs \(whole)")
        let midFade = try await Self.luma(["-ss", "4", "-i", clip], filters: "scale=320:180")
        #expect(midFade.mean < 0.8 * whole.mean, "the fixture fades: \(midFade) vs \(whole)")
    }

    @Test func narrowRenditionsGetNoUpscaledPosterAndTheStoryboardCoversTheTitle() async throws {
        let directory = try TemporaryDirectory()
        let (_, title) = try await Self.transcodeFadingClip(width: 480, height: 270, in: directory)
        let manifest = try #require(try Stills.write(titleFolder: title))
        let stills = title.appendingPathComponent("stills")
        #expect(manifest.posters.map(\.width) == [320], "640 and 1280 would upscale the 480-wide rendition")
        let files = try FileManager.default.contentsOfDirectory(atPath: stills.path).filter { $0.hasSuffix(".jpg") }
        for file in files where file.hasPrefix("poster") {
            #expect(try await Self.size(of: stills.appendingPathComponent(file).path)[0] <= 480, "\(file)")
        }
        try await Self.checkStoryboard(in: stills, duration: 12)
    }

    /// The cues run back to back from 0 to the duration, and each `#xywh` lies inside its sheet.
    static func checkStoryboard(in stills: URL, duration: Double) async throws {
        let vtt = try String(contentsOf: stills.appendingPathComponent("storyboard.vtt"), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT\n"))
        let lines = vtt.split(separator: "\n").map(String.init)
        var end = 0.0
        var cues = 0
        for (index, line) in lines.enumerated() where line.contains(" --> ") {
            let times = line.components(separatedBy: " --> ").map(Self.seconds)
            #expect(abs(times[0] - end) < 0.0005, "no gap or overlap before \(line)")
            #expect(times[1] > times[0])
            end = times[1]
            let target = lines[index + 1].split(separator: "#")
            let box = target[1].dropFirst("xywh=".count).split(separator: ",").compactMap { Int($0) }
            let sheet = try await size(of: stills.appendingPathComponent(String(target[0])).path)
            #expect(box.count == 4 && box[0] >= 0 && box[1] >= 0 && box[2] > 0 && box[3] > 0)
            #expect(box[0] + box[2] <= sheet[0] && box[1] + box[3] <= sheet[1], "\(lines[index + 1]) inside \(sheet)")
            cues += 1
        }
        #expect(cues >= 2)
        #expect(abs(end - duration) < 0.05, "the last cue ends with the title: \(end)")
    }

    static func seconds(_ text: String) -> Double {
        let parts = text.split(separator: ":").compactMap { Double($0) }
        return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : .nan
    }

    @Test func thumbnailShowsTheNearestKeyframeAtTheNextWidth() async throws {
        let directory = try TemporaryDirectory()
        let (clip, title) = try await Self.transcodeFadingClip(width: 1280, height: 720, in: directory)
        let source = try ThumbnailSource(titleFolder: title)
        let snapped = try #require(source.snap(time: 9.5, width: 300))
        #expect(abs(snapped.time - 10) < 0.001, "keyframes every 2 s: 10 is nearer than 8 (\(snapped.time))")
        #expect(snapped.width == 320 && snapped.height == 180)
        #expect(source.snap(time: 10.9, width: 161) == snapped, "the same keyframe and the same next width")
        #expect(abs(try #require(source.snap(time: 8.9, width: 320)).time - 8) < 0.001, "8.9 is nearer 8 than 10")
        let rendered = try source.render(snapped)
        #expect(rendered.width == 320 && rendered.height == 180)
        let file = directory.url.appendingPathComponent("thumb.jpg")
        try rendered.jpeg.write(to: file)
        #expect(try await Self.size(of: file.path) == [320, 180])
        let thumbnail = try await PictureMeasurements.rawFrames(["-i", file.path], filters: "null", format: "gray")
        let same = try await PictureMeasurements.rawFrames(["-ss", "10", "-i", clip], filters: "scale=320:180", format: "gray")
        let asked = try await PictureMeasurements.rawFrames(["-ss", "9.5", "-i", clip], filters: "scale=320:180", format: "gray")
        let before = try await PictureMeasurements.rawFrames(["-ss", "8", "-i", clip], filters: "scale=320:180", format: "gray")
        let near = PictureMeasurements.meanDifference(thumbnail, same)
        #expect(near < 6, "the keyframe at 10 s: \(near)")
        #expect(near < PictureMeasurements.meanDifference(thumbnail, asked) / 2, "not the picture at 9.5 s")
        #expect(near < PictureMeasurements.meanDifference(thumbnail, before) / 2, "not the keyframe at 8 s")
        let wide = try #require(source.snap(time: 3, width: 1900))
        #expect(wide.width == 1280 && wide.height == 720, "1920, capped at the largest rendition")
        #expect(source.snap(time: 3, width: 700)?.width == 960, "rounded up to the next allowed width")
    }

    /// At capped constant quality a 4 s title cut into 2 s segments ends with a segment of one picture and its
    /// sound, 10 MPEG-TS packets at the smallest rung: too few for FFmpeg's probe to score it as MPEG-TS, which
    /// takes it for MPEG audio, so the stills, reading it alone, once found no picture in it and wrote none.
    @Test func aLastSegmentOfOneTinyPictureIsReadAsTheMPEGTSItIs() async throws {
        let directory = try TemporaryDirectory()
        let path = try await SyntheticClip(width: 320, height: 180, duration: 4).make(in: directory.url)
        let title = directory.url.appendingPathComponent("title")
        let ladder = [Rung(name: "180p", width: 320, height: 180, bitrate: 250_000), Rung(name: "144p", width: 256, height: 144, bitrate: 150_000)]
        _ = try await Transcoder(options: TranscodeOptions(ladder: ladder, preset: "ultrafast", segmentDuration: 2, rateControl: .quality))
            .transcode(input: path, outputDirectory: title.path)
        let last = title.appendingPathComponent("144p/segment_002.ts").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: last)[.size] as? Int)
        let probed = try await ExternalTool.run("ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", last])
        #expect(size <= 10 * 188 && !probed.standardOutput.contains("mpegts"),
                "the case itself: a segment the probe cannot tell (\(size) bytes, probed as \(probed.standardOutput))")
        let manifest = try #require(try Stills.write(titleFolder: title), "stills for a title whose last segment is that small")
        #expect(manifest.storyboard.tiles > 0)
        #expect(FileManager.default.fileExists(atPath: title.appendingPathComponent("stills/poster.jpg").path))
    }

    @Test func audioOnlyTitlesHaveNoStills() async throws {
        let directory = try TemporaryDirectory()
        let sound = directory.url.appendingPathComponent("sound.m4a").path
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "aac", sound])
        let title = directory.url.appendingPathComponent("title")
        _ = try await Transcoder(options: TranscodeOptions(ladder: Self.ladder, preset: "ultrafast"))
            .transcode(input: sound, outputDirectory: title.path)
        #expect(try Stills.write(titleFolder: title) == nil)
        #expect(!FileManager.default.fileExists(atPath: title.appendingPathComponent("stills").path))
        #expect(try ThumbnailSource(titleFolder: title).snap(time: 1, width: 320) == nil)
    }

    /// A title long enough for a tile every 8 s, more than a segment: only the segments that hold a tile or a
    /// poster candidate are read, and every tile still shows the picture of its own time.
    @Test func aLongTitlesTilesShowTheirOwnTimes() async throws {
        let directory = try TemporaryDirectory()
        var clip = SyntheticClip(width: 320, height: 180, duration: 1000, hasAudio: false)
        clip.frameRate = "2"
        // The hue turns once every 97 s, so that pictures 24 s apart differ in colour.
        clip.videoSource = "testsrc2=size=SIZE:rate=RATE:duration=DURATION,hue=H=2*PI*t/97"
        let path = try await clip.make(in: directory.url)
        let title = directory.url.appendingPathComponent("title")
        _ = try await Transcoder(options: TranscodeOptions(ladder: [Rung(name: "180p", width: 320, height: 180, bitrate: 200_000)],
                                                           preset: "ultrafast"))
            .transcode(input: path, outputDirectory: title.path)
        let manifest = try #require(try Stills.write(titleFolder: title))
        #expect(manifest.storyboard.interval == 8 && manifest.storyboard.tiles == 125)
        let stills = title.appendingPathComponent("stills")
        try await Self.checkStoryboard(in: stills, duration: 1000)
        for tile in [37, 100, 124] {
            let sheet = stills.appendingPathComponent("storyboard_\(tile / 100).jpg").path
            let (x, y) = (tile % 100 % 10 * 160, tile % 100 / 10 * 90)
            let picture = try await PictureMeasurements.rawFrames(["-i", sheet], filters: "crop=160:90:\(x):\(y)", format: "rgb24")
            let time = Double(tile) * 8
            let own = try await PictureMeasurements.rawFrames(["-ss", "\(time)", "-i", path], filters: "scale=160:90", format: "rgb24")
            let earlier = try await PictureMeasurements.rawFrames(["-ss", "\(time - 24)", "-i", path], filters: "scale=160:90", format: "rgb24")
            let near = PictureMeasurements.meanDifference(picture, own)
            #expect(near < PictureMeasurements.meanDifference(picture, earlier) / 2, "tile \(tile) shows \(time) s: \(near)")
        }
    }
}
