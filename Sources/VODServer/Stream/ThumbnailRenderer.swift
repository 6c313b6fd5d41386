import Hummingbird
import NIOPosix
import Synchronization

/// Runs thumbnail work on threads of its own, never the cooperative pool or the event loops: at most `renders`
/// at once (each decode is single-threaded, so at most that many cores), with at most `waiting` more queued.
/// Past that a request is refused at once, 503 with `Retry-After`, rather than queued behind the others.
final class ThumbnailRenderer: Sendable {
    /// How long a refused client is asked to wait, in seconds.
    static let retryAfter = 1

    let limits: ThumbnailLimits
    private let pool: NIOThreadPool
    /// Work admitted and not finished: running or waiting for a thread.
    private let admitted = Atomic<Int>(0)

    init(limits: ThumbnailLimits) {
        self.limits = limits
        pool = NIOThreadPool(numberOfThreads: limits.renders)
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Runs `work` on one of the renderer's threads once one is free, or throws a 503 when `renders` are
    /// running and `waiting` more are queued.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        defer { admitted.subtract(1, ordering: .relaxed) }
        guard admitted.add(1, ordering: .relaxed).newValue <= limits.renders + limits.waiting else {
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: String(Self.retryAfter)],
                message: "Too many thumbnails are being rendered; try again in \(Self.retryAfter) s"
            )
        }
        return try await pool.runIfActive(work)
    }
}
