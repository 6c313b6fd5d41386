import CFFmpeg

/// One chapter of a file, as its container (Matroska, MP4) marks it.
public struct FileChapter: Sendable, Equatable {
    /// Where the chapter starts, in seconds of the file's timeline.
    public var start: Double
    /// Where the chapter ends, in seconds of the file's timeline.
    public var end: Double
    /// The chapter's `title` metadata, when it has one.
    public var title: String?
}

extension InputFile {
    /// The chapters of the file in the container's order; empty when it has none.
    public var chapters: [FileChapter] {
        (0..<Int(context.pointee.nb_chapters)).compactMap { index in
            guard let chapter = context.pointee.chapters[index] else { return nil }
            let timeBase = Rational(chapter.pointee.time_base)
            let title = av_dict_get(chapter.pointee.metadata, "title", nil, 0).flatMap { $0.pointee.value.map { String(cString: $0) } }
            return FileChapter(start: timeBase.seconds(chapter.pointee.start), end: timeBase.seconds(chapter.pointee.end), title: title)
        }
    }
}
