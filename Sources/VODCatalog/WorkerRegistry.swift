/// The transcode workers that report they are alive, with their current job and lease.
///
/// One role of a `MediaCatalog`; a type that needs only this role names it alone.
public protocol WorkerRegistry: Sendable {
    /// Records that a worker is alive, creating its entry the first time.
    func recordHeartbeat(_ heartbeat: WorkerHeartbeat) async throws
    /// Removes a worker's entry (it stopped gracefully).
    func removeWorker(id: String) async throws
    /// Every worker that reported lately, with its current job and lease.
    func workers() async throws -> [WorkerStatus]
}
