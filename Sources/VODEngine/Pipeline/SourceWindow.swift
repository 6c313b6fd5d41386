/// What part of the source a stage reads.
enum SourceWindow {
    /// Everything: the pictures and every track.
    case whole
    /// The pictures of one chunk of a split title, and nothing else.
    case chunk(ChunkSpec)
    /// Every audio and subtitle track of a split title, on its timeline; no picture is decoded.
    case tracks(timelineStart: Double)
}

extension SourceStage {
    /// How far before a chunk's first picture its decoding starts: a second, so that a deinterlacer has the
    /// pictures before its first one.
    static let chunkPreroll = 1.0
}
