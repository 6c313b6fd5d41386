import Foundation

/// How much of the machine thumbnails on demand may take: renders at once and requests waiting for one.
public struct ThumbnailLimits: Sendable, Equatable {
    /// Thumbnails rendered at once, each on one thread: half the cores by default, at least one.
    public var renders: Int
    /// Requests waiting for a render beyond those; more get 503 with `Retry-After`.
    public var waiting: Int

    public init(renders: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2), waiting: Int = 4) {
        self.renders = max(1, renders)
        self.waiting = max(0, waiting)
    }
}
