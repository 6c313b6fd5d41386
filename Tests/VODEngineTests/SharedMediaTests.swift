import Foundation
import Testing
import VODConformance
@testable import VODEngine
import VODTestSupport

/// The real samples of `../shared/media/`, written by phones, browsers and broadcasters, come out as a viewer
/// expects: upright, SDR BT.709, progressive, square pixels, the whole duration.
@Suite("Shared real media", .serialized, .tags(.ffmpeg, .gstreamer, .sharedMedia), .needsExternalTools, .timeLimit(.minutes(10)))
struct SharedMediaTests {
    @Test func androidHLGPhoneClipIsToneMapped() async throws {
        let clip = SharedMedia.path("mp4-android-hevc10-hlg.mp4")
        let source = try #require(try MediaProber.probe(path: clip).source)
        #expect(source.hdr == .hlg && source.bitDepth == 10 && source.profile == "Main 10")
        let directory = try TemporaryDirectory()
        let result = try await transcodeAndPlay(clip, in: directory)
        let largestSDR = try #require(result.variants.last { $0.videoRange == "SDR" })
        let segment = result.segment(largestSDR.name)
        let tags = try await PictureMeasurements.tags(of: segment)
        #expect([tags.primaries, tags.transfer, tags.matrix, tags.range] == ["bt709", "bt709", "bt709", "tv"])
        let retagged = try await PictureMeasurements.meanSaturation(of: clip, filters: "format=yuv420p")
        let ours = try await PictureMeasurements.meanSaturation(of: segment)
        #expect(ours > 1.5 * retagged, "tone-mapped saturation \(ours) against \(retagged) for a plain re-tag")
        #expect(abs(try result.playlistDuration() - 0.3001) <= 1.0 / 30)
        // The phone tagged its audio English; the muxed audio says so in every segment's PMT.
        let language = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "a", "-show_entries", "stream_tags=language", "-of", "csv=p=0", segment,
        ]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(language == "eng")
    }

    /// HDR screens also get the phone's HLG, in a 1080p HEVC Main10 rung beside the SDR ladder: in an fMP4 title,
    /// and in an MPEG-TS title (the default), where that rung alone is fMP4 and carries the sound muxed like the TS
    /// rungs do.
    @Test(arguments: [SegmentFormat.ts, .fmp4])
    func androidHLGPhoneClipKeepsItsHLGForHDRScreens(format: SegmentFormat) async throws {
        let clip = SharedMedia.path("mp4-android-hevc10-hlg.mp4")
        let directory = try TemporaryDirectory()
        let options = TranscodeOptions(preset: "superfast", segmentFormat: format)
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        #expect(HLSConformance.check(masterURL: result.masterPlaylist).violations.map(\.description) == [])
        #expect(result.variants.map(\.name).sorted() == ["1080p", "1080p-hdr", "720p"])
        _ = try await HDRLadderTests.expectHDRRung(of: result, named: "1080p-hdr", transfer: "arib-std-b67", range: "HLG", in: directory)
        let sound = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
            directory.url.appendingPathComponent("1080p-hdr.mp4").path,
        ]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(sound == (format == .ts ? "aac" : ""), "the sound is muxed into an MPEG-TS title's rungs, the HDR one too")
        #expect(try HDRLadderTests.segmentFiles(in: result.masterPlaylist.deletingLastPathComponent()).mapValues { $0.first } == [
            "720p": format.fileName(ofSegment: 0), "1080p": format.fileName(ofSegment: 0), "1080p-hdr": "segment_000.m4s",
        ])
        for program in result.variants.indices {
            #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: program) == "")
        }
    }

    /// The quality analysis's window moves to the capture's next keyframe, but an MPEG-TS seek there lands past it
    /// and finds no picture in the window: the planned window is sampled instead, so the title is still scored.
    @Test func dvbBroadcastIsSampledByTheQualityAnalysisThoughItsSeekLandsPastTheKeyframe() async throws {
        let directory = try TemporaryDirectory()
        let options = TranscodeOptions(ladder: [Rung(name: "360p", width: 640, height: 360, bitrate: 600_000)], preset: "ultrafast",
                                       rateControl: .quality)
        let result = try await Transcoder(options: options).transcode(input: SharedMedia.path("ts-dvb-576i-mpeg2.ts"),
                                                                      outputDirectory: directory.url.path)
        let analysis = try #require(result.qualityAnalysis)
        #expect(analysis.trials.count == 2, "scored at two CRFs, not left at the default: \(analysis)")
    }

    /// At capped constant quality x264 neither starves a title's first pictures to fill its VBV buffer nor spends
    /// that buffer in its last ones. Started 0.3 full, the animation's first keyframe had 6.5 kB where the next had
    /// 55 kB, and its first 2 s an SSIM of 0.81 against 0.90 after them; started 0.7 full, the first keyframe gets
    /// half the next one's bits and the first 2 s are within 0.03 of the next 2 s, no more, since what the first
    /// keyframe takes beyond the maxrate counts in the 2 s first segment. At its end, x264 spent the buffer down
    /// to half full in the last 2 s segment, 1.13 × the rung's cap; with a smaller buffer after the last
    /// keyframe, every segment stays within 10 % of the cap.
    @Test func theAnimationsFirstAndLastPicturesKeepToTheCapAtCappedQuality() async throws {
        let clip = SharedMedia.path("natural/bbb_animation_1080p30_hevc.mp4")
        let directory = try TemporaryDirectory()
        let rung = Rung(name: "720p", width: 1280, height: 720, bitrate: 800_000)
        let options = TranscodeOptions(ladder: [rung], preset: "veryfast", rateControl: .quality, crf: 18)
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: directory.url.path)
        let playlist = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("720p/index.m3u8").path
        let keyframes = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v", "-show_entries", "packet=size,flags", "-of", "csv=p=0", playlist,
        ]).standardOutput.split(separator: "\n").filter { $0.contains("K") }.compactMap { Int($0.split(separator: ",")[0]) }
        #expect(keyframes.count == 5)
        #expect(Double(keyframes[0]) >= 0.4 * Double(keyframes[1]), "first keyframes' sizes: \(keyframes)")
        let ssim = try await PictureMeasurements.ssimPerPicture(of: playlist, against: clip, width: 1280, height: 720)
        let first = ssim.prefix(60).reduce(0, +) / 60
        let second = ssim.dropFirst(60).prefix(60).reduce(0, +) / 60
        #expect(first >= second - 0.03, "SSIM of the first 2 s \(first), of the next 2 s \(second)")
        let firstSegment = try #require(try FileManager.default.attributesOfItem(
            atPath: result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("720p/segment_000.ts").path)[.size] as? Int)
        #expect(Double(firstSegment * 8) / 2 <= 1.1 * Double(rung.bitrate), "the 2 s first segment's \(firstSegment) bytes")
        #expect(Double(result.variants[0].bandwidth) <= 1.1 * Double(rung.bitrate), "the measured peak \(result.variants[0].bandwidth)")
    }

    @Test func dvbBroadcastIsDeinterlacedAnamorphicAndStartsAtItsFirstDecodablePicture() async throws {
        let clip = SharedMedia.path("ts-dvb-576i-mpeg2.ts")
        let source = try #require(try MediaProber.probe(path: clip).source)
        #expect(source.interlaced && source.displayAspectRatio == "16:9" && source.videoCodec == "mpeg2video")
        let directory = try TemporaryDirectory()
        let result = try await transcodeAndPlay(clip, in: directory)
        // 720×576 at SAR 64:45 is shown 1024×576, in square pixels.
        #expect(result.variants.map { "\($0.width)x\($0.height)" } == ["1024x576"])
        let tags = try await PictureMeasurements.tags(of: result.segment("576p"))
        #expect(tags.sampleAspectRatio == "1:1" && tags.fieldOrder == "progressive" && tags.matrix == "bt709")
        // The capture starts mid-GOP: pictures decode from 19208.47 s to 19210.99 s.
        let pictures = try await ExternalTool.require("ffprobe", [
            "-v", "quiet", "-select_streams", "v", "-show_entries", "frame=best_effort_timestamp_time", "-of", "csv=p=0", clip,
        ]).standardOutput.split(separator: "\n").compactMap { Double($0.split(separator: ",").first ?? "") }
        let expected = try #require(pictures.max()) + 0.04 - (try #require(pictures.min()))
        let covered = try result.playlistDuration()
        #expect(abs(covered - expected) <= 0.04, "\(covered) s against \(expected) s")
        let woven = try await PictureMeasurements.combing(of: ["-i", clip], width: 1024, height: 576)
        let ours = try await PictureMeasurements.combing(of: ["-i", result.segment("576p")], width: 1024, height: 576)
        #expect(ours < woven * 0.75, "combing \(ours) against \(woven) woven")
    }

    /// The Matroska file declares an average of 1000 fps (a default duration of 1 ms) and FFmpeg guesses 60 fps
    /// from its timestamps, which alternate 33 and 34 ms: its 30 pictures were encoded twice each, at 60 fps.
    /// The rate of its first pictures' timestamps, 30 fps, is the title's.
    @Test func aMatroskaClipWithAbsurdDeclaredRatesIsEncodedAtTheRateOfItsTimestamps() async throws {
        let clip = SharedMedia.path("mkv-sub-srt.mkv")
        let directory = try TemporaryDirectory()
        let result = try await Transcoder(options: TranscodeOptions(preset: "ultrafast")).transcode(input: clip, outputDirectory: directory.url.path)
        #expect(result.variants.map(\.frameRate) == [30])
        func pictures(_ path: String) async throws -> Int {
            let output = try await ExternalTool.require("ffprobe", [
                "-v", "error", "-select_streams", "v", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path,
            ]).standardOutput
            // A rendition's MPEG-TS lists its stream once per program.
            return try #require(output.split(separator: "\n").first.flatMap { Int($0) })
        }
        let source = try await pictures(clip)
        let encoded = try await pictures(result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("720p/index.m3u8").path)
        #expect(source == 30 && encoded <= source + 3, "\(encoded) pictures encoded from \(source)")
    }

    @Test(arguments: ["mkv-sub-srt.mkv", "mkv-sub-pgs.mkv", "webm-mediarecorder-no-duration.webm"])
    func clipsKeepTheirWholeDuration(name: String) async throws {
        let clip = SharedMedia.path(name)
        let directory = try TemporaryDirectory()
        let result = try await transcodeAndPlay(clip, in: directory)
        // The real duration: wherever the last picture or the last sound ends, whichever is later.
        let ends = try await ExternalTool.require("ffprobe", [
            "-v", "quiet", "-show_entries", "packet=codec_type,pts_time,duration_time", "-of", "csv=p=0", clip,
        ]).standardOutput.split(separator: "\n").compactMap { line -> Double? in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[0] == "video" || fields[0] == "audio",
                let start = Double(fields[1]) else { return nil }
            return start + (Double(fields[2]) ?? 0)
        }
        let expected = try #require(ends.max())
        let frame = 1 / result.variants[0].frameRate
        let covered = try result.playlistDuration()
        #expect(abs(covered - expected) <= frame + 0.001, "\(name): \(covered) s against \(expected) s")
        let tags = try await PictureMeasurements.tags(of: result.segment(result.variants[0].name))
        #expect([tags.primaries, tags.transfer, tags.matrix] == ["bt709", "bt709", "bt709"])
    }
}
