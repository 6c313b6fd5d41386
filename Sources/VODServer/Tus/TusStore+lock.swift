import Foundation

extension TusStore {
    /// Runs `body` as the only writer of upload `id`: a second request of this process, or of another process
    /// sharing the folder (an advisory `flock` on the data file), gets `APIError.uploadBusy` at once.
    func withLock<T: Sendable>(_ id: String, _ body: () async throws -> T) async throws -> T {
        guard busy.withLock({ $0.insert(id).inserted }) else { throw APIError.uploadBusy }
        defer { _ = busy.withLock { $0.remove(id) } }
        let descriptor = open(dataPath(of: id), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw APIError.uploadNotFound }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { throw APIError.uploadBusy }
        // Unlocked before the close: a process forked meanwhile holds the descriptor until it execs, and with it
        // the lock, so the next request would be refused as busy.
        defer { _ = flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
