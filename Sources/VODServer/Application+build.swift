import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import VODService

/// Builds the vod server: the HTTP API of the client contract plus the transcode workers, all stopped
/// gracefully on SIGTERM and SIGINT when run with `runService()`.
public func buildApplication(
    configuration: VODServerConfiguration,
    library: MediaLibrary,
    logger: Logger = Logger(label: "vod")
) -> some ApplicationProtocol {
    let jobs = RunningJobs()
    let feed = EventFeed(events: library.events, logger: logger)
    let storedJSON = StoredJSONCache()
    let uploads = TusStore(mediaDirectory: library.mediaDirectory, expiry: configuration.uploadExpiry / .seconds(1))
    let metrics = ServiceMetrics()
    let streamFiles = StreamFiles(catalog: library.catalog, segmentCacheSize: configuration.segmentCacheSize, metrics: metrics)
    let caches = TitleCaches(streamFiles: streamFiles)
    let subscribers = ConnectionSlots.eventSubscribers(configuration.connectionLimits)
    let router = buildRouter(
        configuration: configuration, library: library, jobs: jobs, feed: feed, storedJSON: storedJSON, uploads: uploads,
        caches: caches, metrics: metrics, subscribers: subscribers
    )
    let workers = TranscodeService(library: library, jobs: jobs, configuration: configuration, metrics: metrics, logger: logger)
    let renderer = EventRenderer(storedJSON: storedJSON)
    let webSocket = EventsWebSocket(
        feed: feed, renderer: renderer, publicURL: configuration.publicBaseURL, subscribers: subscribers,
        access: EventAccess(tokens: configuration.playbackTokens, protection: configuration.writeProtection)
    )
    let deliveries = EventDeliveryService(
        catalog: library.catalog, policy: configuration.webhooks, wakeups: library.events.wakeups,
        render: { [baseURL = configuration.unsolicitedBaseURL] in try renderer.json(of: $0, baseURL: baseURL) }, logger: logger
    )
    let serverName = "vod"
    let protection = configuration.writeProtection
    logger.log(
        level: protection.isOpen ? .warning : .info, "write protection is \(protection.isOpen ? "off" : "on")",
        metadata: ["writes": "\(protection)"]
    )
    return Application(
        router: router,
        server: webSocketServer(configuration: configuration, webSocket: webSocket, fastPath: {
            let fastPath = StreamFastPath(files: streamFiles, metrics: metrics, serverName: serverName)
            let rawPath = StreamRawPath(files: streamFiles, metrics: metrics, serverName: serverName,
                                        idleTimeout: configuration.idleTimeout, fastPath: fastPath)
            return (fastPath, rawPath)
        }),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: serverName),
        services: [
            workers, deliveries, TusExpiryService(store: uploads, logger: logger),
            CacheInvalidation(catalog: library.catalog, feed: feed, caches: caches, logger: logger),
        ],
        logger: logger
    )
}

/// The routes, behind request metrics, CORS and JSON errors: the API, `/health`, `/metrics` and the web console
/// at `/`; `uploads` holds the resumable uploads of `/api/uploads`, `caches` what is kept of titles, and
/// `subscribers` counts the event streams, which `GET /api/ws` shares.
func buildRouter(
    configuration: VODServerConfiguration, library: MediaLibrary, jobs: RunningJobs, feed: EventFeed, storedJSON: StoredJSONCache,
    uploads: TusStore, caches: TitleCaches, metrics: ServiceMetrics, subscribers: ConnectionSlots
) -> Router<VODRequestContext> {
    let router = Router(context: VODRequestContext.self)
    let publicURL = configuration.publicBaseURL
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: CORSHeadersMiddleware(routedPreflights: [TusController.path], writes: configuration.crossOriginWrites))
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: CrossOriginWriteMiddleware(policy: configuration.crossOriginWrites))
    let routeMethods = RouteMethods()
    router.add(middleware: MethodNotAllowedMiddleware(routes: routeMethods))
    router.add(middleware: LogRequestsMiddleware(.debug))
    router.add(middleware: MinimumBodyRateMiddleware(bytesPerSecond: configuration.minimumBodyRate, grace: configuration.idleTimeout))
    router.addHealthCheck(catalog: library.catalog)
    let playback = configuration.playbackTokens
    let uploadSlots = ConnectionSlots.uploads(configuration.connectionLimits)
    MediaController(
        library: library,
        streamFiles: caches.streamFiles,
        jobs: jobs,
        maxUploadSize: configuration.maxUploadSize,
        uploadSlots: uploadSlots,
        formLimits: configuration.connectionLimits,
        writeProtection: configuration.writeProtection,
        playback: playback,
        publicURL: publicURL,
        storedJSON: storedJSON,
        metrics: metrics,
        thumbnails: caches.thumbnails,
        thumbnailSources: caches.thumbnailSources,
        thumbnailRenderer: ThumbnailRenderer(limits: configuration.thumbnailLimits),
        renderThumbnail: configuration.renderThumbnail
    ).addRoutes(to: router.group("api/media"))
    EventsController(feed: feed, catalog: library.catalog, renderer: EventRenderer(storedJSON: storedJSON), publicURL: publicURL,
                     subscribers: subscribers, access: EventAccess(tokens: playback, protection: configuration.writeProtection))
        .addRoutes(to: router.group("api"))
    WorkersController(catalog: library.catalog, writeProtection: configuration.writeProtection)
        .addRoutes(to: router.group("api/workers"))
    WebhooksController(catalog: library.catalog, writeProtection: configuration.writeProtection)
        .addRoutes(to: router.group("api/webhooks"))
    TusController(library: library, store: uploads, maxUploadSize: configuration.maxUploadSize, uploadSlots: uploadSlots,
                  writeProtection: configuration.writeProtection, publicURL: publicURL, metrics: metrics)
        .addRoutes(to: router.group("api/uploads"))
    MetricsController(metrics: metrics, catalog: library.catalog).addRoutes(to: router)
    OpenAPIController().addRoutes(to: router)
    ConsoleController(configuration: configuration).addRoutes(to: router)
    routeMethods.register(router.routes)
    return router
}

/// HTTP/1 with the WebSocket upgrade of `GET /api/ws`, keeping plain HTTP/1's limits on request heads, with
/// `fastPath` answering what it can of each connection's requests before Hummingbird, and a body that stops
/// arriving answered 408 (`RequestBodyTimeout`).
private func webSocketServer(
    configuration: VODServerConfiguration, webSocket: EventsWebSocket,
    fastPath: @escaping @Sendable () -> (StreamFastPath, StreamRawPath)
) -> HTTPServerBuilder {
    let idleTimeout = TimeAmount(configuration.idleTimeout)
    let channel = HTTP1WebSocketUpgradeChannel.Configuration(
        http1: .init(
            additionalChannelHandlers: [
                StreamFastPath.Installer(make: fastPath), RequestBodyTimeout(idleTimeout: configuration.idleTimeout),
            ],
            idleTimeout: idleTimeout,
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: configuration.maxHeaderSize, maxHeaderListSize: configuration.maxHeaderSize
            )
        )
    )
    return HTTPServerBuilder { responder in
        GuardedWebSocketChannel(
            base: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: channel, shouldUpgrade: webSocket.shouldUpgrade),
            idleTimeout: idleTimeout, subscribers: webSocket.subscribers
        )
    }
}
