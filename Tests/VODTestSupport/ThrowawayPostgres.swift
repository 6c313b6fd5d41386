import Foundation
import Synchronization

/// A throwaway PostgreSQL server from Debian's packages (`initdb` and `pg_ctl` in a temporary folder, on a free
/// loopback port), started once per test process and stopped when it exits. Run as root, the server runs as the
/// `postgres` user, since PostgreSQL refuses to run as root.
public final class ThrowawayPostgres: Sendable {
    public let port: Int
    let dataDirectory: String
    let binaries: String
    /// The server's command-line options: port, socket folder, loopback only, no fsync.
    let serverOptions: String
    private static let started = Mutex<Task<ThrowawayPostgres, any Error>?>(nil)

    /// A server of the caller's own, for a test that stops or restarts it and so must not share it; stopped when
    /// the test process exits.
    public static func own() async throws -> ThrowawayPostgres {
        do { return try await ThrowawayPostgres() } catch { throw ToolError(description: "\(error)") }
    }

    /// The server of this test process, started on first use; tests that ask meanwhile wait for that start.
    public static func shared() async throws -> ThrowawayPostgres {
        let start = started.withLock { started in
            if started == nil {
                started = Task { try await own() }
            }
            return started!
        }
        return try await start.value
    }

    private init() async throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.sorted().last else {
            throw ToolError(description: "no PostgreSQL server in /usr/lib/postgresql: run Scripts/setup --test")
        }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vod-postgres-\(UUID().uuidString)").path
        dataDirectory = folder + "/data"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try LoopbackPort.free()
        serverOptions = "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        if getuid() == 0 { try await ExternalTool.require("chown", ["-R", "postgres:postgres", folder]) }
        try await run("initdb", ["-D", dataDirectory, "-U", "vod", "--auth=trust", "-E", "UTF8", "--no-sync"])
        try await start()
        let stop = shellCommand("pg_ctl -D \(dataDirectory) -m immediate stop")
        Self.stopAtExit.withLock { $0.append(stop + " >/dev/null 2>&1; rm -rf \(folder)") }
        atexit { ThrowawayPostgres.stopAtExit.withLock { $0.forEach { _ = system($0) } } }
    }

    private var logPath: String { (dataDirectory as NSString).deletingLastPathComponent + "/server.log" }

    /// Starts the server and waits until it accepts connections; the error carries the end of its log.
    public func start() async throws {
        do {
            try await daemon("pg_ctl -D \(dataDirectory) -l \(logPath) -w -t 60 -o '\(serverOptions)' start")
        } catch {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw ToolError(description: "\(error); the server's log ends: \(log.split(separator: "\n").suffix(5).joined(separator: "\n"))")
        }
    }

    /// Runs a `pg_ctl` command line through the shell with its output discarded, since the server it starts
    /// outlives it and would keep a captured output open.
    private func daemon(_ command: String) async throws {
        let output = try await ExternalTool.run("sh", ["-c", shellCommand(command) + " </dev/null >/dev/null 2>&1"], timeout: 120)
        guard output.status == 0 else { throw ToolError(description: "\(command) exited \(output.status)") }
    }

    /// `command` (a tool of the server's `bin` folder and its arguments) as the user the server runs as.
    private func shellCommand(_ command: String) -> String {
        getuid() == 0 ? "runuser -u postgres -- \(binaries)/\(command)" : "\(binaries)/\(command)"
    }

    private static let stopAtExit = Mutex<[String]>([])

    /// A new empty database on the server, as a `postgres://` URL.
    public func makeDatabase() async throws -> String {
        let name = "vod_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await run("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "vod", String(name)])
        return "postgres://vod@127.0.0.1:\(port)/\(name)"
    }

    /// Stops the server as a crash would; `start()` starts it again on the same port and data.
    public func crash() async throws {
        try await daemon("pg_ctl -D \(dataDirectory) -m immediate stop")
    }

    private func run(_ tool: String, _ arguments: [String]) async throws {
        let path = "\(binaries)/\(tool)"
        if getuid() == 0 {
            try await ExternalTool.require("runuser", ["-u", "postgres", "--", path] + arguments, timeout: 120)
        } else {
            try await ExternalTool.require(path, arguments, timeout: 120)
        }
    }
}
