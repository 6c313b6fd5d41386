import Prometheus
import Synchronization
import VODCatalog

/// The Prometheus metrics of one server: the registry `GET /metrics` renders and the handles the request
/// middleware, the stream files, the segment cache, the upload handler and the transcode workers record into.
///
/// Each application owns its registry, so several servers in one process (tests) never share counts.
final class ServiceMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    /// Body bytes of stream files (playlists and segments) sent, ranges and gzip as sent.
    let servedBytes: Counter
    /// Bytes of uploaded files received into staging.
    let uploadedBytes: Counter
    /// Transcodes this process started.
    let jobsStarted: Counter
    /// Transcodes this process finished and published ready.
    let jobsDone: Counter
    /// Transcodes this process failed, with a reason in the catalog.
    let jobsFailed: Counter
    /// Seconds of media per wall second of each transcode this process finished (× real time).
    let transcodeSpeed: ValueHistogram
    /// The same, of the last one.
    let lastTranscodeSpeed: Gauge
    /// Segments answered from memory.
    let segmentCacheHits: Counter
    /// Segments read from disk into the cache.
    let segmentCacheMisses: Counter
    /// Segments sent from their file by the kernel (sendfile), neither from the cache nor read into it.
    let segmentsSentFromFile: Counter
    /// Thumbnails rendered on demand (not those answered from memory).
    let thumbnailRenders: Counter
    /// Playlist requests answered from the connection's bytes, below the HTTP/1 codec (`StreamRawPath`).
    let answersBelowCodec: Counter

    /// Request latency buckets, in seconds: 1 ms to 10 s.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// Transcode speed buckets, in × real time.
    static let speedBuckets: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]

    init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        servedBytes = registry.makeCounter(descriptor: Self.name("stream_served", "bytes_total", "Body bytes of stream playlists and segments sent"))
        uploadedBytes = registry.makeCounter(descriptor: Self.name("upload_received", "bytes_total", "Bytes of uploaded media files received"))
        jobsStarted = registry.makeCounter(descriptor: Self.name("transcode_jobs_started", "total", "Transcodes this process started"))
        jobsDone = registry.makeCounter(descriptor: Self.name("transcode_jobs_done", "total", "Transcodes this process finished ready"))
        jobsFailed = registry.makeCounter(descriptor: Self.name("transcode_jobs_failed", "total", "Transcodes this process failed"))
        transcodeSpeed = registry.makeValueHistogram(
            descriptor: Self.name("transcode_speed", "ratio", "Media seconds per wall second of finished transcodes"),
            buckets: Self.speedBuckets
        )
        lastTranscodeSpeed = registry.makeGauge(
            descriptor: Self.name("transcode_last_speed", "ratio", "Media seconds per wall second of the last finished transcode")
        )
        segmentCacheHits = registry.makeCounter(descriptor: Self.name("segment_cache_hits", "total", "Segments served from memory"))
        segmentCacheMisses = registry.makeCounter(descriptor: Self.name("segment_cache_misses", "total", "Segments read from disk into the cache"))
        segmentsSentFromFile = registry.makeCounter(
            descriptor: Self.name("segments_sent_from_file", "total", "Segments sent from their file with sendfile")
        )
        thumbnailRenders = registry.makeCounter(descriptor: Self.name("thumbnail_renders", "total", "Thumbnails rendered on demand"))
        answersBelowCodec = registry.makeCounter(
            descriptor: Self.name("stream_answers_below_codec", "total", "Playlist requests answered below the HTTP/1 codec")
        )
    }

    /// The request counter (by route, method and status) and latency histogram (by route and method) of one
    /// kind of request, looked up once: the registry builds and checks names and labels on every lookup, which
    /// the request path must not pay.
    struct RequestHandles: Sendable {
        let requests: Counter
        let duration: ValueHistogram
    }

    private struct RequestKind: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private let requestHandles = Mutex<[RequestKind: RequestHandles]>([:])

    /// The handles of requests to `route` (the matched pattern, or `unmatched`) with `method` answered `status`.
    func requests(route: String, method: String, status: Int) -> RequestHandles {
        let kind = RequestKind(route: route, method: method, status: status)
        if let known = requestHandles.withLock({ $0[kind] }) { return known }
        let handles = RequestHandles(
            requests: registry.makeCounter(
                descriptor: Self.name("http_requests", "total", "HTTP requests by route pattern, method and status"),
                labels: [("route", route), ("method", method), ("status", String(status))]
            ),
            duration: registry.makeValueHistogram(
                descriptor: Self.name("http_request_duration", "seconds", "HTTP request latency by route pattern and method"),
                labels: [("route", route), ("method", method)],
                buckets: Self.latencyBuckets
            )
        )
        requestHandles.withLock { $0[kind] = handles }
        return handles
    }

    /// The gauge of the catalog's items with `status`, across every process sharing it.
    func queueDepth(_ status: MediaStatus) -> Gauge {
        registry.makeGauge(
            descriptor: Self.name("queue_depth", "", "Catalog items by status, read at scrape time"),
            labels: [("status", status.rawValue)]
        )
    }

    /// The Prometheus text of every metric, the queue gauges read from `catalog` first.
    func exposition(catalog: any MediaStore) async throws -> String {
        let counts = try await catalog.countByStatus()
        for status in MediaStatus.allCases { queueDepth(status).set(Double(counts[status] ?? 0)) }
        return registry.emitToString()
    }

    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "vod", metricName: metric, unitName: unit, helpText: help)
    }
}
