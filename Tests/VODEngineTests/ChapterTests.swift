import Foundation
import Testing
import VODEngine
import VODTestSupport

/// Matroska and MP4 chapters are listed by the probe and reach players as Apple's JSON chapters, named in the
/// master by `#EXT-X-SESSION-DATA`.
@Suite("Chapters", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(5)))
struct ChapterTests {
    static let marks = ChapterMarks([(0, 1000, "Opening"), (1000, 3000, "The middle")])

    @Test(arguments: ["mkv", "mp4"])
    func chaptersAreProbedAndAnnouncedInTheMaster(container: String) async throws {
        let directory = try TemporaryDirectory()
        var clip = SyntheticClip(width: 320, height: 180, duration: 3)
        clip.container = container
        let plain = try await clip.make(in: directory.url)
        let chaptered = try await Self.marks.add(to: plain, name: "chaptered.\(container)")
        let probed = try #require(try MediaProber.probe(path: chaptered).chapters)
        #expect(probed == (try await Self.ffprobeChapters(of: chaptered)), "the chapters as ffprobe reads them")
        #expect(probed.map(\.start) == [0, 1] && probed.map(\.title) == ["Opening", "The middle"] && probed[0].end == 1)
        // MP4 ends its last chapter with the file.
        #expect(abs(probed[1].end - 3) < 0.05, "\(probed[1].end)")
        #expect(try MediaProber.probe(path: plain).chapters == [], "a file without chapters lists none")

        let result = try await transcodeAndPlay(chaptered, in: directory)
        let folder = result.masterPlaylist.deletingLastPathComponent()
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8).split(separator: "\n")
        #expect(master.filter { $0.hasPrefix("#EXT-X-SESSION-DATA") }
            == [#"#EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.chapters",URI="chapters.json""#])
        let data = try Data(contentsOf: folder.appendingPathComponent("chapters.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(entries.map { $0["chapter"] as? Int } == [1, 2])
        // The title's timeline starts at the first picture: Matroska's comes a frame of AAC priming after 0.
        let start = try await Self.firstPictureTime(of: chaptered)
        let times = entries.compactMap { $0["start-time"] as? Double }
        let durations = entries.compactMap { $0["duration"] as? Double }
        #expect(times.count == 2 && times[0] == 0 && abs(times[1] - (1 - start)) < 0.002, "\(times), first picture at \(start)")
        let end = min(probed[1].end - start, result.duration)
        #expect(durations.count == 2 && durations[0] == times[1] && abs(times[1] + durations[1] - end) < 0.002,
                "the last chapter ends where the source says, within the title: \(durations), \(end)")
        let titles = entries.map { ($0["titles"] as? [[String: String]]) ?? [] }
        #expect(titles == [[["language": "und", "title": "Opening"]], [["language": "und", "title": "The middle"]]])
    }

    /// When the first picture of `file` is shown, as ffprobe reads it.
    static func firstPictureTime(of file: String) async throws -> Double {
        let output = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v", "-show_entries", "stream=start_time", "-of", "csv=p=0", file,
        ]).standardOutput
        return try #require(output.split(separator: "\n").first.flatMap { Double($0) })
    }

    /// The chapters of `file` as ffprobe reads them, to the millisecond.
    static func ffprobeChapters(of file: String) async throws -> [Chapter] {
        struct Output: Decodable {
            struct Entry: Decodable {
                var start_time: String
                var end_time: String
                var tags: [String: String]?
            }
            var chapters: [Entry]
        }
        let json = try await ExternalTool.require("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", file]).standardOutput
        let milliseconds = { (text: String) in ((Double(text) ?? -1) * 1000).rounded() / 1000 }
        return try JSONDecoder().decode(Output.self, from: Data(json.utf8)).chapters.map { entry in
            Chapter(start: milliseconds(entry.start_time), end: milliseconds(entry.end_time),
                    title: entry.tags?["title"].flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    @Test func aTitleWithoutChaptersNamesNone() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 320, height: 180, duration: 2).make(in: directory.url)
        let result = try await Transcoder(options: TranscodeOptions(preset: "superfast"))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        let master = try String(contentsOf: result.masterPlaylist, encoding: .utf8)
        #expect(!master.contains("SESSION-DATA"))
        #expect(!FileManager.default.fileExists(atPath: result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("chapters.json").path))
    }
}
