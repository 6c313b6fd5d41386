import Hummingbird
import Logging
import ServiceLifecycle
import VODCatalog
import VODService

/// Runs the vod server until SIGTERM or SIGINT, then stops it gracefully within a bounded time.
///
/// A stop signal closes the listening socket at once, so no new request arrives. Requests in flight, such as
/// uploads, may finish; then the transcode workers stop, and running jobs go back to the queue within about a
/// second. Whatever still runs `configuration.shutdownTimeout` after the signal is cancelled: a cut upload
/// leaves no file behind and a cut job is requeued. The process then exits normally.
public func runServer(configuration: VODServerConfiguration, library: MediaLibrary, logger: Logger) async throws {
    let app = buildApplication(configuration: configuration, library: library, logger: logger)
    var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
    group.maximumCancellationDuration = .seconds(5)
    do {
        try await ServiceGroup(configuration: group).run()
    } catch is CancellationError {
        logger.notice("work still running at the shutdown timeout was cancelled")
    }
}

/// Runs transcode workers only, until SIGTERM or SIGINT: the jobs in hand go back to the queue at once, and the
/// process exits. With `metricsAddress`, it serves its own `GET /metrics` (and `/health`) there, and nothing else.
public func runWorkers(
    configuration: VODServerConfiguration, library: MediaLibrary, metricsAddress: (host: String, port: Int)? = nil,
    logger: Logger
) async throws {
    let metrics = ServiceMetrics()
    var services: [any Service] = [
        TranscodeService(library: library, jobs: RunningJobs(), configuration: configuration, metrics: metrics, logger: logger),
    ]
    if let metricsAddress {
        services.append(Application(
            router: metricsRouter(metrics: metrics, catalog: library.catalog),
            configuration: .init(address: .hostname(metricsAddress.host, port: metricsAddress.port), serverName: "vod-worker"),
            logger: logger
        ))
    }
    var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
    group.maximumCancellationDuration = .seconds(5)
    try await ServiceGroup(configuration: group).run()
}

/// A worker's routes: its metrics, and a health check that asks the catalog.
private func metricsRouter(metrics: ServiceMetrics, catalog: any MediaStore) -> Router<VODRequestContext> {
    let router = Router(context: VODRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    router.addHealthCheck(catalog: catalog)
    MetricsController(metrics: metrics, catalog: catalog).addRoutes(to: router)
    return router
}
