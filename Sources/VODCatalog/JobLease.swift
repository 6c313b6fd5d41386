/// A job a worker has claimed: the item as it was claimed, and the lease's token.
///
/// The token is the lease's generation: each claim of an item takes the next one. Every later write about the
/// job (progress, the outcome, a renewal) carries it and is refused once the lease has passed to another claim,
/// so a worker that stalled past its lease can neither publish nor report progress.
public struct JobLease: Sendable, Equatable {
    public var item: MediaItem
    /// The lease's generation.
    public var token: Int64
    /// The worker that holds it, as it named itself when claiming.
    public var worker: String

    public init(item: MediaItem, token: Int64, worker: String) {
        self.item = item
        self.token = token
        self.worker = worker
    }

    public var id: Int64 { item.id }
}

/// A lease that ran out: its holder stopped renewing it (killed, hung, cut off).
public struct ExpiredLease: Sendable, Equatable, Hashable {
    public var id: Int64
    public var token: Int64

    public init(id: Int64, token: Int64) {
        self.id = id
        self.token = token
    }
}

/// What one worker process last told the catalog about itself.
public struct WorkerStatus: Sendable, Equatable {
    /// The worker's name: `host:pid:random`, unique per process.
    public var id: String
    public var host: String
    public var pid: Int
    /// The item it is transcoding, if any.
    public var currentJob: Int64?
    /// When its current lease runs out, in the form of `MediaItem.createdAt`.
    public var leaseExpiresAt: String?
    /// When it last reported, in the same form.
    public var heartbeatAt: String
    /// When it started, in the same form.
    public var startedAt: String
    /// Jobs it has finished (ready or failed).
    public var jobsDone: Int

    public init(id: String, host: String, pid: Int, currentJob: Int64?, leaseExpiresAt: String?, heartbeatAt: String,
                startedAt: String, jobsDone: Int) {
        self.id = id
        self.host = host
        self.pid = pid
        self.currentJob = currentJob
        self.leaseExpiresAt = leaseExpiresAt
        self.heartbeatAt = heartbeatAt
        self.startedAt = startedAt
        self.jobsDone = jobsDone
    }
}

/// What a worker reports at each heartbeat.
public struct WorkerHeartbeat: Sendable, Equatable {
    public var id: String
    public var host: String
    public var pid: Int
    public var jobsDone: Int

    public init(id: String, host: String, pid: Int, jobsDone: Int) {
        self.id = id
        self.host = host
        self.pid = pid
        self.jobsDone = jobsDone
    }
}
