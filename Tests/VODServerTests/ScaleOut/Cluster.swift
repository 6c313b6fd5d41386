import Foundation
import Logging
import VODCatalog
import VODPostgres
import VODTestSupport

/// Several `vod` processes sharing one PostgreSQL catalog (a fresh database on the test process's throwaway
/// server, or on a server of the test's own) and one media and output folder, as machines sharing a mount would.
struct Cluster {
    let directory: TemporaryDirectory
    let database: String
    /// The test's own connection to the catalog the processes share.
    let catalog: PostgresCatalog

    var media: String { directory.url.path + "/media" }
    var output: String { directory.url.path + "/hls_output" }

    /// A small ladder and a fast preset, so that clips transcode in about a second.
    static let encoding = ["--ladder", "240p:320x240@300k", "--preset", "superfast"]

    init(server: ThrowawayPostgres? = nil) async throws {
        directory = try TemporaryDirectory()
        let server = if let server { server } else { try await ThrowawayPostgres.shared() }
        database = try await server.makeDatabase()
        catalog = try await PostgresCatalog.connect(url: database, logger: Logger(label: "vod-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        for folder in [media, output] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// Starts an API node (`vod serve --workers 0`, and `arguments`) and waits until it answers.
    func apiNode(arguments: [String] = []) async throws -> ServerProcess {
        let server = try ServerProcess(database: database, media: media, output: output, arguments: ["--workers", "0"] + arguments,
                                       log: log("api"))
        try await server.waitUntilListening()
        return server
    }

    /// Starts a `vod worker` with a short lease and poll.
    func worker(lease: Int = 3, arguments: [String] = []) throws -> WorkerProcess {
        try WorkerProcess(cluster: self, arguments: ["--lease", "\(lease)", "--poll-interval", "0.5", "--threads", "1"] + arguments)
    }

    /// A library on the cluster's catalog and folders, for adding titles without a worker.
    func library() throws -> TestLibrary {
        try TestLibrary(directory: directory, catalog: catalog)
    }

    /// Every item, oldest first.
    func items() async throws -> [MediaItem] {
        try await catalog.list(status: nil, limit: nil, offset: 0).reversed()
    }

    /// The entries of the output folder, hidden ones included.
    func outputEntries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).sorted()
    }

    func log(_ name: String) -> URL {
        directory.url.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8)).log")
    }

    /// Closes the test's connections.
    func close() { catalog.shutdown() }
}

/// A `vod worker` process on a cluster's catalog and folders.
final class WorkerProcess: @unchecked Sendable {
    let process = Process()
    let log: URL

    init(cluster: Cluster, arguments: [String]) throws {
        log = cluster.log("worker")
        try launchVOD(process, [
            VODBinary.path, "worker", "--database", cluster.database, "--media-dir", cluster.media,
            "--output-dir", cluster.output, "--log-level", "info",
        ] + Cluster.encoding + arguments, log: log)
    }

    /// A test that ends early leaves no worker behind, a stopped one included.
    deinit { endIfRunning(process) }

    var pid: Int32 { process.processIdentifier }

    /// Sends `signal` without waiting.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Sends `signal` and waits for the process to exit; returns its status.
    func stop(_ signal: Int32) async throws -> Int32 {
        kill(pid, signal)
        try await waitUntil("vod worker exits", timeout: 30) { !self.process.isRunning }
        return process.terminationStatus
    }

    /// What the worker logged.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}
