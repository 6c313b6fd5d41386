import Foundation

/// Free loopback ports for servers that tests start.
public enum LoopbackPort {
    /// A loopback port nothing listens on now, below the kernel's range of ephemeral ports: while the server is
    /// down, clients reconnecting to a port in that range can be given it as their own local port and connect
    /// to themselves, which keeps the server from binding it again.
    public static func free() throws -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? []
        let ephemeralStart = range.first ?? 32768
        for port in (10000..<max(ephemeralStart, 10001)).shuffled().prefix(200) where canBind(port) {
            return port
        }
        throw ToolError(description: "no free loopback port below \(ephemeralStart)")
    }

    private static func canBind(_ port: Int) -> Bool {
        onNewSocket(to: port) { bind($0, $1, $2) == 0 }
    }

    /// Whether a server listens on loopback `port` now.
    static func canConnect(_ port: Int) -> Bool {
        onNewSocket(to: port) { connect($0, $1, $2) == 0 }
    }

    /// Calls `operation` with a new TCP socket and the address of loopback `port`, and closes the socket after.
    private static func onNewSocket(to port: Int, _ operation: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                operation(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}
