/// One row of the catalog: an uploaded or imported video and the state of its transcode.
public struct MediaItem: Sendable, Equatable, Codable {
    public var id: Int64
    public var title: String
    public var description: String?
    public var status: MediaStatus
    /// The folder holding the HLS renditions, set once the item is playable (see `publishedAt`) or ready.
    public var hlsPath: String?
    /// The duration in seconds: probed at upload, measured once transcoded.
    public var duration: Double?
    /// How far the transcode has come, from 0 to 1.
    public var progress: Double
    /// A human-readable reason why the item failed.
    public var error: String?
    /// The file name the source had when it was uploaded or imported.
    public var sourceFileName: String
    /// Where the stored original lives.
    public var sourcePath: String
    /// The size of the original in bytes.
    public var sourceSize: Int64
    /// The engine's probe of the original, as JSON.
    public var probeJSON: String?
    /// The probe's summary of the original, already encoded as the media JSON's `source` (set at upload by
    /// this version; nil on older rows, whose `probeJSON` holds it).
    public var sourceSummaryJSON: String?
    /// The probe's track listing, already encoded as the media JSON's `tracks` (like `sourceSummaryJSON`).
    public var tracksJSON: String?
    /// The renditions produced, as JSON.
    public var variantsJSON: String?
    /// How many times a worker has started transcoding it.
    public var attempts: Int
    /// When the item was added, ISO 8601 UTC with milliseconds such as `2025-10-21T14:11:29.798Z`.
    public var createdAt: String
    /// When the item last changed, in the same form as `createdAt`.
    public var updatedAt: String
    /// The generation of its latest lease: 0 until first claimed.
    public var leaseToken: Int64
    /// The caption files added since it was transcoded, oldest first.
    public var captions: [Caption] = []
    /// When the title could first be played (its first segments published while it was processing, or its
    /// whole ladder at once), in the form of `createdAt`; nil before.
    public var publishedAt: String?
    /// How long the transcode that made it ready (or failed it) ran, in seconds.
    public var processingSeconds: Double?
    /// How far each rung's encoder had come at the latest progress report of its transcode, as the JSON array
    /// the worker wrote; nil before the first.
    public var rungProgressJSON: String?
    /// Who may see and play it: `public` by default (rows and events from before titles had one).
    public var visibility: MediaVisibility = .public
    /// The container of its segments, chosen when it was added: `ts` for rows from before titles had one.
    public var segmentFormat: SegmentFormat = .ts

    /// Whether the item can be streamed.
    public var isReady: Bool { status == .ready }

    /// Whether its stream can be played: ready, or processing with the first segments of every rendition out.
    public var isPlayable: Bool { isReady || (status == .processing && publishedAt != nil && hlsPath != nil) }

    /// Whether it is `private`.
    public var isPrivate: Bool { visibility == .private }

    /// An item as a catalog row holds it; catalogs attach `captions` afterwards.
    public init(
        id: Int64, title: String, description: String?, status: MediaStatus, hlsPath: String?, duration: Double?,
        progress: Double, error: String?, sourceFileName: String, sourcePath: String, sourceSize: Int64,
        probeJSON: String?, variantsJSON: String?, attempts: Int, createdAt: String, updatedAt: String, leaseToken: Int64
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.status = status
        self.hlsPath = hlsPath
        self.duration = duration
        self.progress = progress
        self.error = error
        self.sourceFileName = sourceFileName
        self.sourcePath = sourcePath
        self.sourceSize = sourceSize
        self.probeJSON = probeJSON
        self.variantsJSON = variantsJSON
        self.attempts = attempts
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.leaseToken = leaseToken
    }
}

/// What is needed to add a media item to the catalog; it starts `pending`.
public struct NewMedia: Sendable, Equatable {
    public var title: String
    public var description: String?
    public var sourceFileName: String
    public var sourcePath: String
    public var sourceSize: Int64
    public var duration: Double?
    public var probeJSON: String?
    /// The media JSON's `source`, encoded once here rather than on every read.
    public var sourceSummaryJSON: String?
    /// The media JSON's `tracks`, encoded once here rather than on every read.
    public var tracksJSON: String?
    /// Who may see and play it.
    public var visibility: MediaVisibility
    /// The container its segments will be written in.
    public var segmentFormat: SegmentFormat

    public init(
        title: String,
        description: String?,
        sourceFileName: String,
        sourcePath: String,
        sourceSize: Int64,
        duration: Double?,
        probeJSON: String?,
        sourceSummaryJSON: String? = nil,
        tracksJSON: String? = nil,
        visibility: MediaVisibility = .public,
        segmentFormat: SegmentFormat = .ts
    ) {
        self.title = title
        self.description = description
        self.sourceFileName = sourceFileName
        self.sourcePath = sourcePath
        self.sourceSize = sourceSize
        self.duration = duration
        self.probeJSON = probeJSON
        self.sourceSummaryJSON = sourceSummaryJSON
        self.tracksJSON = tracksJSON
        self.visibility = visibility
        self.segmentFormat = segmentFormat
    }
}

/// What a finished transcode leaves in the catalog.
public struct CompletedTranscode: Sendable, Equatable {
    public var hlsPath: String
    public var duration: Double
    public var variantsJSON: String
    /// The media JSON's `tracks` as the transcode read them, with each audio track's loudness; nil keeps the
    /// probe's.
    public var tracksJSON: String?

    public init(hlsPath: String, duration: Double, variantsJSON: String, tracksJSON: String? = nil) {
        self.hlsPath = hlsPath
        self.duration = duration
        self.variantsJSON = variantsJSON
        self.tracksJSON = tracksJSON
    }
}

/// What reclaiming leases did: the jobs put back in the queue and those failed, and the leases that ended, whose
/// staging output can be swept.
public struct RecoveryReport: Sendable, Equatable {
    /// Jobs put back in the queue.
    public var requeued: [Int64]
    /// Jobs failed because they had been interrupted too often.
    public var failed: [Int64]
    /// The leases taken back, by item and token.
    public var expired: [ExpiredLease]

    public init(requeued: [Int64], failed: [Int64], expired: [ExpiredLease] = []) {
        self.requeued = requeued
        self.failed = failed
        self.expired = expired
    }

    public var isEmpty: Bool { requeued.isEmpty && failed.isEmpty }
}
