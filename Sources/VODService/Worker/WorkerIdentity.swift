import Foundation

/// How one work loop names itself to the catalog: `host:pid:random#slot`, unique per process and slot.
struct WorkerIdentity: Sendable {
    let host: String
    let pid: Int
    let id: String

    /// The identity of work loop `slot` of this process; `process` is shared by the process's loops.
    init(slot: Int, process: String) {
        host = ProcessInfo.processInfo.hostName
        pid = Int(getpid())
        id = "\(host):\(pid):\(process)#\(slot)"
    }

    /// The host part of a worker's name as `init` makes it (`host:pid:process#slot`).
    static func host(of id: String) -> Substring {
        id.prefix { $0 != ":" }
    }

    /// A random tag for this process's loops, so a reused pid does not take a dead process's name.
    static func processTag() -> String { String(UUID().uuidString.prefix(8)).lowercased() }

    /// Whether `worker`, as the catalog lists it, is a process of this host that no longer exists.
    static func isDeadLocalProcess(host: String, pid: Int) -> Bool {
        host == ProcessInfo.processInfo.hostName && pid > 0 && kill(pid_t(pid), 0) != 0 && errno == ESRCH
    }
}
