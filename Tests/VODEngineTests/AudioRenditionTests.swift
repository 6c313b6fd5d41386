import Foundation
import Testing
@testable import VODEngine
import VODTestSupport

/// Every audio track of a film or a broadcast reaches the player as its own rendition, named and tagged.
@Suite("Audio renditions", .serialized)
struct AudioRenditionTests {
    @Test func threeLanguagesBecomeThreeRenditionsWithTheSourcesDefault() async throws {
        let directory = try TemporaryDirectory()
        let clip = try SyntheticClip.multiTrack([
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
            let streams = try IndependentPlayers.streams(at: result.segment(variant.name))
            #expect(streams.map(\.codec_type) == ["video"], "the rungs carry no audio of their own")
        }
        for (index, (language, frequency)) in [("eng", 300.0), ("fre", 500.0), ("ger", 700.0)].enumerated() {
            let playlist = folder.appendingPathComponent("audio_\(index)/index.m3u8").path
            let segment = folder.appendingPathComponent("audio_\(index)/segment_000.ts").path
            let tag = try ExternalTool.require("ffprobe", [
                "-v", "error", "-show_entries", "stream_tags=language", "-of", "csv=p=0", segment,
            ]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(tag == language, "rendition \(index) carries its language in the PMT")
            let measured = try Self.toneFrequency(of: playlist)
            #expect(abs(measured - frequency) < 15, "rendition \(index) is its own track: \(measured) Hz")
        }
    }

    @Test func namesComeFromTitlesLanguagesAndDispositions() async throws {
        let directory = try TemporaryDirectory()
        let clip = try SyntheticClip.multiTrack([
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
        let clip = try SyntheticClip.multiTrack(tracks, duration: 2, in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(master.components(separatedBy: "#EXT-X-MEDIA:TYPE=AUDIO").count - 1 == SourceStage.maximumAudioTracks)
        #expect(master.contains(#"NAME="English 8""#) && !master.contains(#"NAME="English 9""#))
    }

    /// The frequency of a pure tone, from the zero crossings of its first channel decoded by ffmpeg.
    static func toneFrequency(of input: String) throws -> Double {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("tone.raw").path
        try ExternalTool.require("ffmpeg", ["-v", "error", "-i", input, "-map", "0:a", "-ac", "1", "-ar", "48000",
                                            "-f", "s16le", path])
        let samples = try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / 2 / (Double(samples.count) / 48000)
    }
}
