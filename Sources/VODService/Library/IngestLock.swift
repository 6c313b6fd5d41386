import Foundation

/// An advisory lock (`flock`) on the media folder itself. Every ingest holds it shared from placing an original
/// until its catalog row exists; the orphan sweep holds it exclusively, so it never removes an original that an
/// upload, or `vod import` in another process, has placed but not yet recorded. A dead process's lock is
/// released by the kernel.
struct IngestLock: Sendable {
    let path: String

    init(mediaDirectory: String) {
        path = mediaDirectory
    }

    /// Runs `body` holding the lock shared (ingests) or exclusive (the sweep). Gives up with `LockBusy` after
    /// `timeout` seconds.
    func withLock<T: Sendable>(
        exclusive: Bool, timeout: Double = 30, _ body: () async throws -> T
    ) async throws -> T {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + .seconds(timeout)
        while flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK, ContinuousClock.now < deadline else { throw LockBusy() }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Unlocked before the close, which a process forked meanwhile would delay until it execs.
        defer { _ = flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// The lock stayed taken for the whole timeout.
    struct LockBusy: Error, CustomStringConvertible {
        var description: String { "the media folder's ingest lock stayed busy" }
    }
}
