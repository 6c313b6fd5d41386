/// The state of one chunk of a title split across workers.
public enum ChunkStatus: String, Sendable {
    /// Waiting for a worker.
    case pending
    /// A worker is encoding it.
    case processing
    /// Its segments are written.
    case done
    /// Given up on; `ChunkJob.error` says why.
    case failed
}

/// One chunk of a long title: a stretch of its video that any worker can encode, into the folder of the title's
/// attempt.
public struct ChunkJob: Sendable, Equatable {
    /// The title it is part of.
    public var mediaID: Int64
    /// Its place in the title, from 0.
    public var index: Int
    /// The folder of the title's attempt its segments go into.
    public var outputPath: String
    /// What the engine needs to encode it, as JSON the catalog keeps as given.
    public var specJSON: String
    public var status: ChunkStatus
    /// How many times a worker has started it.
    public var attempts: Int
    /// Why its last attempt failed.
    public var error: String?
    /// The generation of its latest lease: 0 until first claimed.
    public var leaseToken: Int64
    /// The worker that claimed it last, as it named itself (`host:pid:…`); nil until first claimed.
    public var worker: String?

    /// A chunk as a catalog row holds it.
    public init(mediaID: Int64, index: Int, outputPath: String, specJSON: String, status: ChunkStatus, attempts: Int,
                error: String?, leaseToken: Int64, worker: String? = nil) {
        self.mediaID = mediaID
        self.index = index
        self.outputPath = outputPath
        self.specJSON = specJSON
        self.status = status
        self.attempts = attempts
        self.error = error
        self.leaseToken = leaseToken
        self.worker = worker
    }
}

/// A chunk a worker has claimed, fenced by its token like `JobLease`: every later write about it carries the
/// token and is refused once the lease has passed to another claim.
public struct ChunkLease: Sendable, Equatable {
    /// The chunk as it was claimed.
    public var chunk: ChunkJob
    /// The lease's generation.
    public var token: Int64
    /// The worker that holds it, as it named itself when claiming.
    public var worker: String

    public init(chunk: ChunkJob, token: Int64, worker: String) {
        self.chunk = chunk
        self.token = token
        self.worker = worker
    }
}
