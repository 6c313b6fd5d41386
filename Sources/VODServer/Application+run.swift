import Hummingbird
import Logging
import ServiceLifecycle

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

/// Runs transcode workers only, without HTTP, until SIGTERM or SIGINT: the jobs in hand go back to the queue at
/// once, and the process exits.
public func runWorkers(configuration: VODServerConfiguration, library: MediaLibrary, logger: Logger) async throws {
    let service = TranscodeService(
        library: library, jobs: RunningJobs(), configuration: configuration, metrics: ServiceMetrics(), logger: logger
    )
    var group = ServiceGroupConfiguration(services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
    group.maximumCancellationDuration = .seconds(5)
    try await ServiceGroup(configuration: group).run()
}
