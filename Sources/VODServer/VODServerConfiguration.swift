import Foundation
import VODEngine
import VODService

/// How `vod serve` runs: where it listens, what it accepts and how many transcodes run at once.
///
/// Where files live is the `MediaLibrary`'s business.
public struct VODServerConfiguration: Sendable {
    /// The address to bind, such as `127.0.0.1` or `0.0.0.0`.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// How many transcodes run at once; 0 runs none (an API-only server).
    public var workers: Int
    /// The largest upload accepted, in bytes.
    public var maxUploadSize: Int64
    /// The base URL used in absolute URLs the API returns, such as a CDN in front; by default the request's host.
    public var publicURL: String?
    /// How the engine encodes each item.
    public var transcodeOptions: TranscodeOptions
    /// How many interrupted attempts a job gets before it is failed.
    public var maxAttempts: Int
    /// How long an idle worker waits before looking for a new job, in seconds.
    public var pollInterval: Double
    /// Who may upload, change and delete media; open to anyone by default.
    public var writeProtection: WriteProtection
    /// The origins of other sites whose pages may write (`--cors-origin`); none by default.
    public var corsOrigins: [String]
    /// Whether to listen on an address other machines reach while writes are open to anyone
    /// (`--allow-open-writes`); refused by default (`exposureRefusal`).
    public var allowOpenWrites: Bool
    /// A connection that sends nothing for this long, between requests or within one, is closed; within a
    /// request's body, once that request is answered 408 (`RequestBodyTimeout`).
    public var idleTimeout: Duration
    /// Request bodies must average at least this many bytes per second once `idleTimeout` has passed; 0 turns
    /// the check off.
    public var minimumBodyRate: Int
    /// The largest request head (request line and headers) accepted, in bytes; larger ones get 400.
    public var maxHeaderSize: Int
    /// How long one transcode may run before it is stopped and failed.
    public var jobTimeLimit: JobTimeLimit
    /// How long SIGTERM waits for requests in flight before cancelling them.
    public var shutdownTimeout: Duration
    /// How many bytes of recently served segments are kept in memory for the copy path: the requests that
    /// `StreamFastPath` does not send from the file itself (a connection that asks to close, a request pipelined
    /// behind one still with Hummingbird, the first of a file); 0 streams those from disk.
    public var segmentCacheSize: Int
    /// How long a worker's claim on a job lasts unless renewed; a worker renews it every third of it while it
    /// works, and a job whose lease runs out goes back to the queue.
    public var lease: Duration
    /// Which titles are split into chunks that every worker can encode.
    public var split: SplitPolicy
    /// How long a resumable upload (`/api/uploads`) lives after its last chunk before it expires.
    public var uploadExpiry: Duration
    /// Where status events are POSTed.
    public var webhooks: WebhookPolicy
    /// A copy of hls.js the web console loads where the browser has no HLS of its own: an absolute http or https
    /// URL, or a path on this server (`isUsablePlayerScriptURL`); the console's Content-Security-Policy allows it.
    public var playerScriptURL: String?
    /// Thumbnails rendered at once and requests waiting for one (`GET /api/media/:id/thumbnail.jpg`).
    public var thumbnailLimits: ThumbnailLimits
    /// Event streams, uploads and multipart fields anyone may hold at once (`ConnectionLimits`).
    public var connectionLimits: ConnectionLimits
    /// The HS256 key private titles' playback tokens are signed with (`--playback-key-file`); without one, no
    /// token is issued and private titles do not play.
    public var playbackKey: String?

    /// Issues and checks playback tokens under `playbackKey`.
    var playbackTokens: PlaybackTokens { PlaybackTokens(key: playbackKey) }

    /// Who may write from a web page: the listed origins, and the server's own.
    var crossOriginWrites: CrossOriginWrites {
        CrossOriginWrites(allowedOrigins: corsOrigins, publicURL: publicURL)
    }

    /// Why the server must not start as configured, or nil: writes open to anyone (no key, no secret) on an
    /// address other machines can reach, unless `allowOpenWrites` says that is meant.
    public var exposureRefusal: String? {
        guard writeProtection.isOpen, !allowOpenWrites, !Self.isLoopback(host) else { return nil }
        return "Refusing to listen on \(host) with writes open to anyone on the network: configure an API key "
            + "(--api-key-file or VOD_API_KEY), listen on 127.0.0.1, or pass --allow-open-writes if that is what you want."
    }

    /// Whether `host` is reachable from this machine only: `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// `publicURL` without a trailing slash.
    var publicBaseURL: String? {
        publicURL.map { String($0.reversed().drop { $0 == "/" }.reversed()) }
    }

    /// The base of the URLs in what the server sends unasked (webhooks): `publicURL`, else its own address.
    var unsolicitedBaseURL: String {
        publicBaseURL ?? "http://\(["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host):\(port)"
    }
    /// Renders one thumbnail on demand (`ThumbnailSource.render`); tests wrap it to count and time the renders.
    var renderThumbnail: @Sendable (ThumbnailSource, Thumbnail.Snapped) throws -> Thumbnail.Rendered = { try $0.render($1) }
    /// Writes a finished title's poster and storyboard (`Stills.write`); tests replace it to make it fail.
    var writeStills: @Sendable (_ titleFolder: URL, _ keyframeInterval: Double, _ cancellation: CancellationFlag) throws
        -> StillsManifest? = { try Stills.write(titleFolder: $0, keyframeInterval: $1, cancellation: $2) }

    public init(
        host: String = "127.0.0.1",
        port: Int = 3000,
        workers: Int = 1,
        maxUploadSize: Int64 = 10 * 1024 * 1024 * 1024,
        publicURL: String? = nil,
        transcodeOptions: TranscodeOptions = TranscodeOptions(),
        maxAttempts: Int = 3,
        pollInterval: Double = 0.5,
        writeProtection: WriteProtection = .open,
        corsOrigins: [String] = [],
        allowOpenWrites: Bool = false,
        idleTimeout: Duration = .seconds(30),
        minimumBodyRate: Int = 16 * 1024,
        maxHeaderSize: Int = 32 * 1024,
        jobTimeLimit: JobTimeLimit = JobTimeLimit(),
        shutdownTimeout: Duration = .seconds(10),
        segmentCacheSize: Int = 256 * 1024 * 1024,
        lease: Duration = .seconds(60),
        split: SplitPolicy = SplitPolicy(),
        uploadExpiry: Duration = .seconds(24 * 3600),
        webhooks: WebhookPolicy = WebhookPolicy(),
        playerScriptURL: String? = nil,
        thumbnailLimits: ThumbnailLimits = ThumbnailLimits(),
        connectionLimits: ConnectionLimits = ConnectionLimits(),
        playbackKey: String? = nil
    ) {
        self.host = host
        self.port = port
        self.workers = workers
        self.maxUploadSize = maxUploadSize
        self.publicURL = publicURL
        self.transcodeOptions = transcodeOptions
        self.maxAttempts = maxAttempts
        self.pollInterval = pollInterval
        self.writeProtection = writeProtection
        self.corsOrigins = corsOrigins
        self.allowOpenWrites = allowOpenWrites
        self.idleTimeout = idleTimeout
        self.minimumBodyRate = minimumBodyRate
        self.maxHeaderSize = maxHeaderSize
        self.jobTimeLimit = jobTimeLimit
        self.shutdownTimeout = shutdownTimeout
        self.segmentCacheSize = segmentCacheSize
        self.lease = lease
        self.split = split
        self.uploadExpiry = uploadExpiry
        self.webhooks = webhooks
        self.playerScriptURL = playerScriptURL
        self.thumbnailLimits = thumbnailLimits
        self.connectionLimits = connectionLimits
        self.playbackKey = playbackKey
    }
}
