import Foundation
import Testing
@testable import VODEngine
import VODTestSupport

/// Every audio track of a film or a broadcast reaches the player as its own rendition, named and tagged.
@Suite("Audio renditions", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct AudioRenditionTests {
    @Test func threeLanguagesBecomeThreeRenditionsWithTheSourcesDefault() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.multiTrack([
            ToneTrack(frequency: 300, metadata: ["language=eng"]),
            ToneTrack(frequency: 500, metadata: ["language=fre"], disposition: "default"),
            ToneTrack(frequency: 700, metadata: ["language=ger"]),
        ], in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        let media = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:") }
        #expect(media == [
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="2",URI="audio_0/index.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Français",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio_1/index.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Deutsch",LANGUAGE="de",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="2",URI="audio_2/index.m3u8""#,
        ])
        #expect(master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.allSatisfy { $0.contains(#"AUDIO="aac""#) })
        let folder = result.masterPlaylist.deletingLastPathComponent()
        for variant in result.variants {
            let streams = try await IndependentPlayers.streams(at: result.segment(variant.name))
            #expect(streams.map(\.codec_type) == ["video"], "the rungs carry no audio of their own")
        }
        for (index, (language, frequency)) in [("eng", 300.0), ("fre", 500.0), ("ger", 700.0)].enumerated() {
            let playlist = folder.appendingPathComponent("audio_\(index)/index.m3u8").path
            let segment = folder.appendingPathComponent("audio_\(index)/segment_000.ts").path
            let tag = try await ExternalTool.require("ffprobe", [
                "-v", "error", "-show_entries", "stream_tags=language", "-of", "csv=p=0", segment,
            ]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(tag == language, "rendition \(index) carries its language in the PMT")
            let measured = try await Self.toneFrequency(of: playlist)
            #expect(abs(measured - frequency) < 15, "rendition \(index) is its own track: \(measured) Hz")
        }
    }

    @Test func namesComeFromTitlesLanguagesAndDispositions() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip.multiTrack([
            ToneTrack(frequency: 300, metadata: ["language=fre"], disposition: "default"),
            ToneTrack(frequency: 400, metadata: ["language=fre"], disposition: "visual_impaired"),
            ToneTrack(frequency: 500, metadata: ["language=eng", "title=Director's commentary"]),
            ToneTrack(frequency: 600, metadata: ["language=fre"]),
            ToneTrack(frequency: 700),
        ], in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        let names = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:") }.compactMap { line in
            line.split(separator: ",").first { $0.hasPrefix("NAME=") }.map { String($0.dropFirst(6).dropLast()) }
        }
        #expect(names == ["Français", "Français (description)", "Director's commentary", "Français 2", "Audio"])
        #expect(!master.contains(#"LANGUAGE="und""#) && master.components(separatedBy: "LANGUAGE=").count - 1 == 4)
    }

    @Test func manyTracksAreCappedAtTheDocumentedNumber() async throws {
        let directory = try TemporaryDirectory()
        let tracks = (0..<12).map { ToneTrack(frequency: 200 + 50 * $0, metadata: ["language=eng"]) }
        let clip = try await SyntheticClip.multiTrack(tracks, duration: 2, in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(master.components(separatedBy: "#EXT-X-MEDIA:TYPE=AUDIO").count - 1 == TrackPlan.maximumAudioTracks)
        #expect(master.contains(#"NAME="English 8""#) && !master.contains(#"NAME="English 9""#))
        let listed = try #require(try MediaProber.probe(path: clip).tracks).filter { $0.type == "audio" }
        let kept: [TrackListing.Status] = Array(repeating: .rendition, count: 8)
        #expect(listed.map(\.status) == kept + Array(repeating: .skipped, count: 4))
        let names: [String?] = ["English"] + (2...8).map { "English \($0)" } + [nil, nil, nil, nil]
        #expect(listed.map(\.rendition) == names)
        #expect(listed.last?.reason == "more than 8 audio tracks: the first 8 are kept")
    }

    /// A 5.1 film gets an AC-3 5.1 rendition in its own group, with its own variants on the same video, and the
    /// stereo rendition is the standard downmix: centre and surrounds at −3 dB, the LFE left out.
    @Test func surroundGetsAnAC3RenditionAndAProperStereoDownmix() async throws {
        let directory = try TemporaryDirectory()
        // One tone per channel of 5.1(side): FL, FR, FC, LFE, SL, SR.
        let tones = [300.0, 350, 500, 60, 700, 750]
        let clip = directory.url.appendingPathComponent("surround.mkv").path
        let sines = tones.enumerated().map { "sine=frequency=\(Int($1)):sample_rate=48000:duration=8[c\($0)]" }.joined(separator: ";")
        try await ExternalTool.require("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=8",
            "-filter_complex", sines + ";" + (0..<6).map { "[c\($0)]" }.joined() + "join=inputs=6:channel_layout=5.1(side):map=0.0-FL|1.0-FR|2.0-FC|3.0-LFE|4.0-SL|5.0-SR[s]",
            "-map", "0", "-map", "[s]", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "ac3", "-b:a", "640k",
            "-metadata:s:a:0", "language=eng", clip,
        ])
        let result = try await transcodeAndPlay(clip, in: directory)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        let lines = master.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("#EXT-X-MEDIA:") } == [
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio_0/index.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ac3",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="6",URI="audio_1/index.m3u8""#,
        ])
        let variants = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == 2 * result.variants.count)
        #expect(variants.filter { $0.contains(#"AUDIO="ac3""#) }.allSatisfy { $0.contains(#",ac-3""#) })

        let folder = result.masterPlaylist.deletingLastPathComponent()
        let stereo = try await Self.samples(of: folder.appendingPathComponent("audio_0/index.m3u8").path, channels: 2)
        let left = stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
        let front = Self.amplitude(of: left, at: tones[0])
        #expect(abs(Self.amplitude(of: left, at: tones[2]) / front - 0.7071) < 0.07, "centre at −3 dB")
        #expect(abs(Self.amplitude(of: left, at: tones[4]) / front - 0.7071) < 0.07, "left surround at −3 dB")
        #expect(Self.amplitude(of: left, at: tones[3]) / front < 0.05, "no LFE in stereo")
        #expect(Self.amplitude(of: left, at: tones[1]) / front < 0.05, "the right front stays right")

        let surround = try await Self.samples(of: folder.appendingPathComponent("audio_1/index.m3u8").path, channels: 6)
        for (channel, tone) in tones.enumerated() {
            let samples = stride(from: channel, to: surround.count, by: 6).map { surround[$0] }
            #expect(Self.amplitude(of: samples, at: tone) > 0.1, "channel \(channel) keeps its \(tone) Hz tone")
        }
    }

    /// The decoded samples of an input's audio, interleaved, as 32-bit floats at 48 kHz.
    static func samples(of input: String, channels: Int) async throws -> [Float] {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("audio.raw").path
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-i", input, "-map", "0:a", "-ac", "\(channels)", "-ar", "48000",
                                            "-f", "f32le", path])
        return try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The amplitude of one frequency in `samples` at 48 kHz (Goertzel).
    static func amplitude(of samples: [Float], at frequency: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / 48000)
        var (previous, beforePrevious) = (0.0, 0.0)
        for sample in samples {
            (previous, beforePrevious) = (Double(sample) + coefficient * previous - beforePrevious, previous)
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * power.squareRoot() / Double(samples.count)
    }

    /// The frequency of a pure tone, from the zero crossings of its first channel decoded by ffmpeg.
    static func toneFrequency(of input: String) async throws -> Double {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("tone.raw").path
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-i", input, "-map", "0:a", "-ac", "1", "-ar", "48000",
                                            "-f", "s16le", path])
        let samples = try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / 2 / (Double(samples.count) / 48000)
    }
}
