import Hummingbird
import VODCatalog
import VODModel

/// `GET /api/workers`: the transcode workers that share the catalog, for operators; protected like writes, since
/// it names hosts and processes.
struct WorkersController: Sendable {
    let catalog: any WorkerRegistry & SignatureLedger
    let writeProtection: WriteProtection

    func addRoutes(to group: RouterGroup<VODRequestContext>) {
        group.add(middleware: WriteProtectionMiddleware(protection: writeProtection, signatures: catalog, body: .collected(limit: MediaController.maximumSignedBodySize)))
            .get(use: list)
    }

    /// Each worker: host, pid, current job and its lease's expiry, last heartbeat, start, and jobs done.
    @Sendable func list(_ request: Request, context: VODRequestContext) async throws -> Response {
        let workers = try await catalog.workers()
        let json = "[" + workers.map { worker in
            var object = OrderedJSONObject()
            object.add("id", worker.id)
            object.add("host", worker.host)
            object.add("pid", worker.pid)
            object.add("current_job", worker.currentJob.map(Int.init))
            object.add("lease_expires_at", worker.leaseExpiresAt)
            object.add("last_heartbeat", worker.heartbeatAt)
            object.add("started_at", worker.startedAt)
            object.add("jobs_done", worker.jobsDone)
            return object.json
        }.joined(separator: ",") + "]"
        return .operatorJSON(json)
    }
}
