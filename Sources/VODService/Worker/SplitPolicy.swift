/// Which titles are split into chunks that every worker can encode (`SplitTitle`), and how.
public struct SplitPolicy: Sendable, Equatable {
    /// Titles longer than this many seconds are split; nil splits none.
    public var after: Double?
    /// The length of a chunk, in seconds, but the first.
    public var chunkSeconds: Double
    /// The least length of the first chunk, in seconds: 0 makes it the title's first segment alone, short so
    /// that the title is out in seconds.
    public var firstChunkSeconds: Double

    public init(after: Double? = 120, chunkSeconds: Double = 30, firstChunkSeconds: Double = 0) {
        self.after = after
        self.chunkSeconds = chunkSeconds
        self.firstChunkSeconds = firstChunkSeconds
    }

    /// Whether a title of `duration` seconds (as probed at upload) is split.
    func splits(duration: Double?) -> Bool {
        guard let after, let duration else { return false }
        return duration > after
    }
}
