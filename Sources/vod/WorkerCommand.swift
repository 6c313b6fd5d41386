import ArgumentParser
import Logging
import VODFFmpeg
import VODServer

/// `vod worker`: transcodes only, taking jobs from a shared catalog; stopped gracefully by SIGTERM or SIGINT,
/// which puts the job in hand back in the queue at once.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Transcode queued uploads from a shared catalog, without serving HTTP.",
        discussion: """
            Run any number of workers, on any number of machines, against the same --database (a \
            postgres:// URL) and the same --media-dir and --output-dir (shared storage every node mounts). \
            Each job is held under a lease (--lease); a worker that dies loses its jobs to the others when the \
            lease runs out, and its late output is discarded.
            """
    )

    @OptionGroup var storage: StorageOptions

    @Option(help: ArgumentHelp("How many transcodes this process runs at once (env VOD_CONCURRENCY; default 1).", valueName: "count"))
    var concurrency: Int?

    @Option(help: ArgumentHelp("x264 threads per rung of each job (env VOD_THREADS; default: the cores shared among the rungs).", valueName: "count"))
    var threads: Int?

    @Option(help: ArgumentHelp("Seconds between looks at the queue when idle; a PostgreSQL catalog also wakes workers at once (default 5).", valueName: "seconds"))
    var pollInterval: Double = 5

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning or error (env VOD_LOG_LEVEL; default info).", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("Serve this worker's Prometheus GET /metrics (and GET /health) on this port (env VOD_METRICS_PORT; default: none).", valueName: "port"))
    var metricsPort: Int?

    @Option(help: ArgumentHelp("The address the metrics port listens on (env VOD_METRICS_HOST; default 127.0.0.1).", valueName: "address"))
    var metricsHost: String?

    @OptionGroup var encoding: EncodingOptions

    @OptionGroup var queue: QueueOptions

    func validate() throws {
        guard try resolvedConcurrency() >= 1 else { throw ValidationError("--concurrency must be at least 1.") }
        guard try resolvedThreads().map({ $0 >= 1 }) ?? true else { throw ValidationError("--threads must be at least 1.") }
        guard pollInterval > 0 else { throw ValidationError("--poll-interval must be positive.") }
        guard try resolvedMetricsPort().map({ (1...65535).contains($0) }) ?? true else {
            throw ValidationError("--metrics-port must be from 1 to 65535.")
        }
        guard Logger.Level(rawValue: logLevel ?? environment("VOD_LOG_LEVEL") ?? "info") != nil else {
            throw ValidationError("Unknown log level; use trace, debug, info, notice, warning or error.")
        }
    }

    func run() async throws {
        MallocArenas.limitForLongRunningProcess()
        var logger = Logger(label: "vod-worker")
        logger.logLevel = Logger.Level(rawValue: logLevel ?? environment("VOD_LOG_LEVEL") ?? "info") ?? .info
        var options = try encoding.transcodeOptions()
        options.threads = try resolvedThreads()
        let configuration = VODServerConfiguration(
            workers: try resolvedConcurrency(), transcodeOptions: options, pollInterval: pollInterval,
            lease: .seconds(try queue.resolvedLease()),
            split: try queue.splitPolicy()
        )
        let library = try await storage.library(logger: logger, segmentFormat: options.segmentFormat)
        logger.info("vod worker", metadata: [
            "database": "\(storage.databaseDescription)", "media": "\(library.mediaDirectory)",
            "output": "\(library.outputDirectory)", "concurrency": "\(configuration.workers)",
        ])
        let metricsAddress = try resolvedMetricsPort().map { (host: metricsHost ?? environment("VOD_METRICS_HOST") ?? "127.0.0.1", port: $0) }
        if let metricsAddress { logger.info("metrics on http://\(metricsAddress.host):\(metricsAddress.port)/metrics") }
        try await runWorkers(configuration: configuration, library: library, metricsAddress: metricsAddress, logger: logger)
    }

    private func resolvedConcurrency() throws -> Int {
        try concurrency ?? environment("VOD_CONCURRENCY").map { try Self.integer($0, "VOD_CONCURRENCY") } ?? 1
    }

    private func resolvedMetricsPort() throws -> Int? {
        try metricsPort ?? environment("VOD_METRICS_PORT").map { try Self.integer($0, "VOD_METRICS_PORT") }
    }

    private func resolvedThreads() throws -> Int? {
        try threads ?? environment("VOD_THREADS").map { try Self.integer($0, "VOD_THREADS") }
    }

    private static func integer(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("\(name) must be an integer, not '\(text)'.") }
        return value
    }
}
