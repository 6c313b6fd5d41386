import Foundation
import Testing
import VODConformance
import VODEngine
import VODTestSupport

/// Real encodes of synthetic clips through the whole ladder, checked by independent clients.
@Suite("Transcoding a ladder", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct TranscodeLadderTests {
    @Test func landscape1080pGets720pAnd1080pAndNo4k() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 1920, height: 1080, duration: 8).make(in: directory.url)
        let result = try await transcodeAndVerify(clip, in: directory, preset: "superfast")
        #expect(result.variants.map { "\($0.name) \($0.width)x\($0.height)" } == ["720p 1280x720", "1080p 1920x1080"])
    }

    @Test func clip2160pGetsAllThreeRungs() async throws {
        let directory = try TemporaryDirectory()
        var source = SyntheticClip(width: 3840, height: 2160, duration: 3)
        source.frameRate = "30"
        let clip = try await source.make(in: directory.url)
        let result = try await transcodeAndVerify(clip, in: directory, preset: "superfast")
        #expect(result.variants.map { "\($0.name) \($0.width)x\($0.height)" }
                == ["720p 1280x720", "1080p 1920x1080", "4k 3840x2160"])
    }

    @Test func portrait1080x1920GetsPortraitRungs() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 1080, height: 1920, duration: 7).make(in: directory.url)
        let result = try await transcodeAndVerify(clip, in: directory, preset: "superfast")
        #expect(result.variants.map { "\($0.name) \($0.width)x\($0.height)" } == ["720p 720x1280", "1080p 1080x1920"])
    }

    /// Transcodes `clip` and checks the output the way a player would: ffprobe, ffmpeg decoding every variant,
    /// and GStreamer's playbin; then checks segment alignment, IDR starts, CODECS and bandwidth figures.
    private func transcodeAndVerify(_ clip: String, in directory: TemporaryDirectory, preset: String) async throws -> TranscodeResult {
        let output = directory.url.appendingPathComponent("out")
        let result = try await Transcoder(options: TranscodeOptions(preset: preset))
            .transcode(input: clip, outputDirectory: output.path)
        let masterURL = output.appendingPathComponent("master.m3u8")
        let report = HLSConformance.check(masterURL: masterURL)
        #expect(report.violations.map(\.description) == [], "every rule in the shared HLS rules document holds")
        for variant in result.variants {
            let measured = try #require(report.measurements.rungs.first { $0.playlist == variant.playlist })
            #expect(Double(variant.bandwidth) >= measured.peakBandwidth && Double(variant.bandwidth) <= 1.1 * measured.peakBandwidth,
                    "BANDWIDTH is at least the measured peak and within 10 % of it")
            #expect(measured.idrTimes.count >= 2, "IDRs every 2 s")
        }
        let master = try MasterPlaylistText(contentsOf: masterURL)
        #expect(master.lines.first == "#EXTM3U")
        #expect(master.lines.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
        #expect(master.variants.count == result.variants.count)
        #expect(try await IndependentPlayers.programCount(master: masterURL.path) == result.variants.count)

        var segmentStarts: [[Double]] = []
        for (program, variant) in master.variants.enumerated() {
            #expect(try await IndependentPlayers.decodeErrors(master: masterURL.path, program: program) == "")
            let playlistURL = output.appendingPathComponent(variant.uri)
            let playlist = try MediaPlaylistText(contentsOf: playlistURL)
            let longest = playlist.segments.map { Int(($0.duration + 0.5).rounded(.down)) }.max() ?? 0
            #expect(playlist.targetDuration == longest && longest <= 6, "TARGETDURATION is honest and at most the 6 s target")
            let probes = try await playlist.segments.asyncMap {
                try await SegmentProbe(path: playlistURL.deletingLastPathComponent().appendingPathComponent($0.uri).path)
            }
            #expect(probes.allSatisfy { $0.firstVideoIsKeyframe }, "every segment starts with a keyframe")
            segmentStarts.append(probes.map(\.firstVideoPTS))
            let first = try #require(probes.first)
            #expect(first.profile == "High")
            let resolution = try #require(variant.attributes["RESOLUTION"])
            #expect(resolution == "\(first.width ?? 0)x\(first.height ?? 0)")
            let level = try #require(first.level)
            let codecs = try #require(variant.attributes["CODECS"])
            #expect(codecs == "avc1.6400" + String(format: "%02x", level) + ",mp4a.40.2")
            #expect(variant.attributes["FRAME-RATE"] == "30.000")
            let bytes = try playlist.segments.map { segment -> Int in
                let path = playlistURL.deletingLastPathComponent().appendingPathComponent(segment.uri).path
                return try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            }
            let totalDuration = playlist.segments.reduce(0) { $0 + $1.duration }
            let average = Double(bytes.reduce(0, +)) * 8 / totalDuration
            let declaredAverage = try #require(Double(variant.attributes["AVERAGE-BANDWIDTH"] ?? ""))
            #expect(abs(declaredAverage - average) / average < 0.10)
            let last = try #require(probes.last)
            #expect(abs(last.videoEnd - (first.firstVideoPTS + totalDuration)) < 1.0 / 30 + 0.001,
                    "EXTINF sum equals the media duration within a frame")
            #expect(abs((last.audioEnd ?? 0) - last.videoEnd) < 1.0 / 30 + 0.001, "audio and video end together")
        }
        #expect(Set(segmentStarts).count == 1, "segment k starts at the same time in every rung: \(segmentStarts)")

        let play = try await IndependentPlayers.gstreamerPlay(uri: masterURL.absoluteString)
        #expect(play.status == 0, "GStreamer played the master: \(play.standardError)")
        return result
    }
}
