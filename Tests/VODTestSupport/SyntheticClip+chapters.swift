import Foundation

/// Chapters written into a copy of a clip, as Matroska and MP4 authoring tools mark them.
public struct ChapterMarks: Sendable {
    /// Each chapter's start and end in milliseconds, and its title (none when empty).
    public var chapters: [(start: Int, end: Int, title: String)]

    public init(_ chapters: [(start: Int, end: Int, title: String)]) {
        self.chapters = chapters
    }

    /// Copies `clip` (its streams untouched) to `name` in the same folder with these chapters, the container
    /// picked by `name`'s extension, and returns the copy's path.
    public func add(to clip: String, name: String) async throws -> String {
        let folder = URL(fileURLWithPath: clip).deletingLastPathComponent()
        let metadata = folder.appendingPathComponent("\(name).chapters.txt")
        let sections = chapters.map { chapter in
            "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(chapter.start)\nEND=\(chapter.end)\n" + (chapter.title.isEmpty ? "" : "title=\(chapter.title)\n")
        }
        try (";FFMETADATA1\n" + sections.joined()).write(to: metadata, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent(name).path
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-y", "-i", clip, "-i", metadata.path, "-map", "0",
                                                  "-map_chapters", "1", "-c", "copy", path])
        return path
    }
}
