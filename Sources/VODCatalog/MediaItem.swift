/// One row of the catalog: an uploaded or imported video and the state of its transcode.
public struct MediaItem: Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var description: String?
    public var status: MediaStatus
    /// The folder holding the HLS renditions, set once the item is ready.
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
    /// The renditions produced, as JSON.
    public var variantsJSON: String?
    /// How many times a worker has started transcoding it.
    public var attempts: Int
    /// When the item was added, ISO 8601 UTC with milliseconds such as `2025-10-21T14:11:29.798Z`.
    public var createdAt: String
    /// When the item last changed, in the same form as `createdAt`.
    public var updatedAt: String

    /// Whether the item can be streamed.
    public var isReady: Bool { status == .ready }
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

    public init(
        title: String,
        description: String?,
        sourceFileName: String,
        sourcePath: String,
        sourceSize: Int64,
        duration: Double?,
        probeJSON: String?
    ) {
        self.title = title
        self.description = description
        self.sourceFileName = sourceFileName
        self.sourcePath = sourcePath
        self.sourceSize = sourceSize
        self.duration = duration
        self.probeJSON = probeJSON
    }
}

/// What a finished transcode leaves in the catalog.
public struct CompletedTranscode: Sendable, Equatable {
    public var hlsPath: String
    public var duration: Double
    public var variantsJSON: String

    public init(hlsPath: String, duration: Double, variantsJSON: String) {
        self.hlsPath = hlsPath
        self.duration = duration
        self.variantsJSON = variantsJSON
    }
}

/// What crash recovery did to the jobs it found `processing`.
public struct RecoveryReport: Sendable, Equatable {
    /// Jobs put back in the queue.
    public var requeued: [Int64]
    /// Jobs failed because they had been interrupted too often.
    public var failed: [Int64]

    public init(requeued: [Int64], failed: [Int64]) {
        self.requeued = requeued
        self.failed = failed
    }
}
