import Synchronization

/// The transcodes running in this process, by media id, so that deleting an item can stop its job.
package final class RunningJobs: Sendable {
    private let tasks = Mutex<[Int64: Task<Void, Never>]>([:])

    /// No job yet.
    package init() {}

    /// Records the task transcoding item `id`.
    func insert(_ task: Task<Void, Never>, for id: Int64) {
        tasks.withLock { $0[id] = task }
    }

    /// Forgets the task of item `id` once it has ended.
    func remove(_ id: Int64) {
        _ = tasks.withLock { $0.removeValue(forKey: id) }
    }

    /// Cancels the job of item `id`, if one runs, and waits until it has stopped.
    package func cancel(_ id: Int64) async {
        guard let task = tasks.withLock({ $0[id] }) else { return }
        task.cancel()
        await task.value
    }
}
