import Foundation
import VODFFmpeg
import VODModel

/// A title's chapters in Apple's JSON chapter format for HLS (`chapters.json`: `chapter`, `start-time`,
/// `duration` and `titles`), announced in the master with `#EXT-X-SESSION-DATA`.
enum ChapterList {
    /// The file beside the master.
    static let file = "chapters.json"
    /// The master's line that names the file, in the data id Apple's players read chapters from.
    static let sessionData = #"#EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.chapters",URI="\#(file)""#

    /// The chapters of a probe, as the container marks them, to the millisecond; an empty title is none.
    static func listed(_ chapters: [FileChapter]) -> [Chapter] {
        chapters.map { chapter in
            Chapter(start: milliseconds(chapter.start), end: milliseconds(chapter.end),
                    title: chapter.title.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// The chapters on the title's timeline, which starts at source time `start` and lasts `duration` seconds:
    /// moved and cut to it, and those left with nothing to show dropped.
    static func onTimeline(_ chapters: [FileChapter], start: Double, duration: Double) -> [Chapter] {
        listed(chapters).compactMap { chapter in
            let from = max(chapter.start - start, 0)
            let to = min(chapter.end - start, duration)
            return to > from ? Chapter(start: milliseconds(from), end: milliseconds(to), title: chapter.title) : nil
        }
    }

    /// One entry of Apple's format; a chapter without a title has no `titles`.
    private struct Entry: Encodable {
        struct Title: Encodable {
            /// BCP 47; the containers FFmpeg reads do not give a chapter title's language.
            var language = "und"
            var title: String
        }

        var chapter: Int
        var startTime: Double
        var duration: Double
        var titles: [Title]?

        enum CodingKeys: String, CodingKey {
            case chapter, duration, titles
            case startTime = "start-time"
        }
    }

    /// The JSON of `chapters`, numbered from 1.
    static func json(_ chapters: [Chapter]) throws -> String {
        let entries = chapters.enumerated().map { index, chapter in
            Entry(chapter: index + 1, startTime: chapter.start, duration: milliseconds(chapter.end - chapter.start),
                  titles: chapter.title.map { [Entry.Title(title: $0)] })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n"
    }

    private static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
