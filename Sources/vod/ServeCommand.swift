import ArgumentParser
import Logging
import VODFFmpeg
import VODServer
import VODService

/// `vod serve`: the HTTP API and the transcode workers in one process, stopped gracefully by SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the media API and HLS streams, and transcode uploads in the background.",
        discussion: """
            Every option can also be set by an environment variable: VOD_HOST, VOD_PORT, VOD_DATABASE, \
            VOD_MEDIA_DIR, VOD_OUTPUT_DIR, VOD_WORKERS, VOD_MAX_UPLOAD_SIZE, VOD_PUBLIC_URL, VOD_LOG_LEVEL, \
            VOD_API_KEY_FILE, VOD_API_SECRET_FILE, VOD_PLAYBACK_KEY_FILE, VOD_IDLE_TIMEOUT, VOD_MIN_UPLOAD_RATE, VOD_JOB_TIMEOUT, \
            VOD_SHUTDOWN_TIMEOUT, VOD_SEGMENT_CACHE_SIZE, VOD_LEASE, VOD_SPLIT_AFTER, VOD_CHUNK_SECONDS, \
            VOD_UPLOAD_EXPIRY, VOD_WEBHOOK_URLS, VOD_WEBHOOK_SECRET, VOD_WEBHOOK_RETRY_DELAY, \
            VOD_PLAYER_SCRIPT_URL, VOD_CORS_ORIGINS, VOD_ALLOW_OPEN_WRITES, VOD_RATE_CONTROL and VOD_LOUDNESS_TARGET. \
            A flag wins over its variable.

            Reads are public. With a key in VOD_API_KEY or --api-key-file, uploads, PATCH, DELETE and retries \
            need X-API-Key; with a secret in VOD_API_SECRET or --api-secret-file they must also be signed \
            (see docs/security.md). With neither, anyone can write, and a warning is logged at start; then \
            vod serve listens only on loopback addresses unless --allow-open-writes is given. Web pages of \
            other origins may read, and may write only if their origin is listed with --cors-origin. \
            A private title is listed only with X-API-Key and plays only with a playback token, signed with \
            the key of --playback-key-file; without that key, no token is issued.
            """
    )

    @Option(help: ArgumentHelp("The address to bind (env VOD_HOST; default 127.0.0.1; 0.0.0.0 for all).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("The port to listen on (env VOD_PORT; default 3000).", valueName: "port"))
    var port: Int?

    @OptionGroup var storage: StorageOptions

    @Option(help: ArgumentHelp("How many transcodes run at once; 0 serves the API only (env VOD_WORKERS; default 1).", valueName: "count"))
    var workers: Int?

    @Option(help: ArgumentHelp("The largest upload, such as 500M or 10G (env VOD_MAX_UPLOAD_SIZE; default 10G).", valueName: "size"))
    var maxUploadSize: String?

    @Option(help: ArgumentHelp(
        "Seconds a resumable upload (/api/uploads) lives after its last chunk (env VOD_UPLOAD_EXPIRY; default 86400).",
        valueName: "seconds"))
    var uploadExpiry: Double?

    @Option(help: ArgumentHelp("The base URL of absolute URLs in responses, such as a CDN (env VOD_PUBLIC_URL).", valueName: "url"))
    var publicURL: String?

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning or error (env VOD_LOG_LEVEL; default info).", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp(
        "Seconds one transcode may run before it is stopped and failed (env VOD_JOB_TIMEOUT; default 10 × the source's duration, at least 600, at most 21600).",
        valueName: "seconds"))
    var jobTimeout: Double?

    @Option(help: ArgumentHelp(
        "Seconds SIGTERM lets requests in flight finish before cancelling them (env VOD_SHUTDOWN_TIMEOUT; default 10).",
        valueName: "seconds"))
    var shutdownTimeout: Double?

    @Option(help: ArgumentHelp(
        "Memory for recently served segments of ready titles, such as 256M: a held segment is answered from memory, others are sent from the file (env VOD_SEGMENT_CACHE_SIZE; default 256M; 0 holds none).",
        valueName: "size"))
    var segmentCacheSize: String?

    @Option(help: ArgumentHelp(
        "A copy of hls.js you host, which the web console at / loads where the browser has no HLS of its own: an http(s) URL or a path on this server (env VOD_PLAYER_SCRIPT_URL).",
        valueName: "url"))
    var playerScriptURL: String?

    @Option(help: ArgumentHelp(
        "Thumbnails rendered at once on demand, each on one thread; 4 more requests wait, the rest get 503 (env VOD_THUMBNAIL_RENDERS; default half the cores, at least 1).",
        valueName: "count"))
    var thumbnailRenders: Int?

    @OptionGroup var encoding: EncodingOptions

    @OptionGroup var queue: QueueOptions

    @OptionGroup var security: SecurityOptions

    @OptionGroup var limits: LimitOptions

    @OptionGroup var webhooks: WebhookOptions

    func validate() throws {
        guard try resolvedPort() >= 0, try resolvedPort() <= 65535 else { throw ValidationError("--port must be 0…65535.") }
        guard try resolvedWorkers() >= 0 else { throw ValidationError("--workers cannot be negative.") }
        guard try resolvedJobTimeout().map({ $0 > 0 }) ?? true else { throw ValidationError("--job-timeout must be positive.") }
        guard try resolvedShutdownTimeout() >= 0 else { throw ValidationError("--shutdown-timeout cannot be negative.") }
        guard try resolvedMaxUploadSize() > 0 else { throw ValidationError("--max-upload-size must be positive.") }
        guard try resolvedUploadExpiry() > 0 else { throw ValidationError("--upload-expiry must be positive.") }
        _ = try resolvedSegmentCacheSize()
        if let url = resolvedPlayerScriptURL(), !VODServerConfiguration.isUsablePlayerScriptURL(url) {
            throw ValidationError("--player-script-url must be an http or https URL, or a path starting with /, not '\(url)'.")
        }
        guard Logger.Level(rawValue: logLevel ?? environment("VOD_LOG_LEVEL") ?? "info") != nil else {
            throw ValidationError("Unknown log level; use trace, debug, info, notice, warning or error.")
        }
    }

    func run() async throws {
        MallocArenas.limitForLongRunningProcess()
        var logger = Logger(label: "vod")
        logger.logLevel = Logger.Level(rawValue: logLevel ?? environment("VOD_LOG_LEVEL") ?? "info") ?? .info
        let configuration = VODServerConfiguration(
            host: host ?? environment("VOD_HOST") ?? "127.0.0.1",
            port: try resolvedPort(),
            workers: try resolvedWorkers(),
            maxUploadSize: try resolvedMaxUploadSize(),
            publicURL: publicURL ?? environment("VOD_PUBLIC_URL"),
            transcodeOptions: try encoding.transcodeOptions(),
            writeProtection: try security.writeProtection(),
            corsOrigins: try security.resolvedCORSOrigins(),
            allowOpenWrites: security.resolvedAllowOpenWrites,
            idleTimeout: .seconds(try security.resolvedIdleTimeout()),
            minimumBodyRate: try security.resolvedMinimumUploadRate(),
            jobTimeLimit: JobTimeLimit(fixed: try resolvedJobTimeout().map { .seconds($0) }),
            shutdownTimeout: .seconds(try resolvedShutdownTimeout()),
            segmentCacheSize: Int(try resolvedSegmentCacheSize()),
            lease: .seconds(try queue.resolvedLease()),
            split: try queue.splitPolicy(),
            uploadExpiry: .seconds(try resolvedUploadExpiry()),
            webhooks: try webhooks.webhookPolicy(),
            playerScriptURL: resolvedPlayerScriptURL(),
            thumbnailLimits: try resolvedThumbnailLimits(),
            connectionLimits: try limits.connectionLimits(),
            playbackKey: try security.playbackKey()
        )
        if let refusal = configuration.exposureRefusal { throw ValidationError(refusal) }
        var library = try await storage.library(logger: logger, segmentFormat: configuration.transcodeOptions.segmentFormat)
        library.segmentEncryption = try security.segmentEncryption()
        logger.info(
            "vod serve",
            metadata: [
                "database": "\(storage.databaseDescription)", "media": "\(library.mediaDirectory)",
                "output": "\(library.outputDirectory)", "workers": "\(configuration.workers)",
            ]
        )
        try await runServer(configuration: configuration, library: library, logger: logger)
    }

    private func resolvedPort() throws -> Int {
        try port ?? environment("VOD_PORT").map { try Self.integer($0, "VOD_PORT") } ?? 3000
    }

    private func resolvedThumbnailLimits() throws -> ThumbnailLimits {
        guard let renders = try thumbnailRenders ?? environment("VOD_THUMBNAIL_RENDERS").map({ try Self.integer($0, "VOD_THUMBNAIL_RENDERS") })
        else { return ThumbnailLimits() }
        guard renders > 0 else { throw ValidationError("--thumbnail-renders must be at least 1.") }
        return ThumbnailLimits(renders: renders)
    }

    private func resolvedWorkers() throws -> Int {
        try workers ?? environment("VOD_WORKERS").map { try Self.integer($0, "VOD_WORKERS") } ?? 1
    }

    private func resolvedJobTimeout() throws -> Double? {
        try jobTimeout ?? environment("VOD_JOB_TIMEOUT").map { try Self.number($0, "VOD_JOB_TIMEOUT") }
    }

    private func resolvedShutdownTimeout() throws -> Double {
        try shutdownTimeout ?? environment("VOD_SHUTDOWN_TIMEOUT").map { try Self.number($0, "VOD_SHUTDOWN_TIMEOUT") } ?? 10
    }

    private func resolvedUploadExpiry() throws -> Double {
        try uploadExpiry ?? environment("VOD_UPLOAD_EXPIRY").map { try Self.number($0, "VOD_UPLOAD_EXPIRY") } ?? 24 * 3600
    }

    private func resolvedPlayerScriptURL() -> String? {
        playerScriptURL ?? environment("VOD_PLAYER_SCRIPT_URL")
    }

    private func resolvedMaxUploadSize() throws -> Int64 {
        try Self.size(maxUploadSize ?? environment("VOD_MAX_UPLOAD_SIZE") ?? "10G", of: "upload")
    }

    private func resolvedSegmentCacheSize() throws -> Int64 {
        try Self.size(segmentCacheSize ?? environment("VOD_SEGMENT_CACHE_SIZE") ?? "256M", of: "segment cache")
    }

    private static func size(_ text: String, of what: String) throws -> Int64 {
        guard let size = ByteSize.parse(text) else {
            throw ValidationError("Invalid \(what) size '\(text)'; use bytes or a number with K, M or G, such as 500M.")
        }
        return size
    }

    private static func number(_ text: String, _ name: String) throws -> Double {
        guard let value = Double(text) else { throw ValidationError("\(name) must be a number of seconds, not '\(text)'.") }
        return value
    }

    private static func integer(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("\(name) must be an integer, not '\(text)'.") }
        return value
    }
}
