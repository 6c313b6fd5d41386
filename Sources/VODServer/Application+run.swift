import Hummingbird
import Logging
import ServiceLifecycle

/// Runs the vod server until SIGTERM or SIGINT, then stops it gracefully within a bounded time.
///
/// A stop signal closes the listening socket at once, so no new request or job starts; running transcodes are
/// cancelled and their items go back to the queue within about a second; requests in flight, such as uploads,
/// may finish for up to `configuration.shutdownTimeout`, after which they are cancelled (a cut upload leaves
/// no file behind).
public func runServer(configuration: VODServerConfiguration, library: MediaLibrary, logger: Logger) async throws {
    let app = buildApplication(configuration: configuration, library: library, logger: logger)
    var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
    group.maximumCancellationDuration = .seconds(5)
    try await ServiceGroup(configuration: group).run()
}
