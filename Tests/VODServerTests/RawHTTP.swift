import Foundation
import VODTestSupport

/// Sends bytes no well-behaved client would send, over a plain socket (Python's), and reports what came back:
/// requests that HTTP clients refuse to build, slow drips, and connections that go quiet.
struct RawHTTP {
    /// What the server did.
    struct Outcome: Decodable {
        /// The status code, or nil when nothing came back.
        let status: Int?
        /// The response body, as text.
        let body: String
        /// Whether the server closed the connection within the time limit.
        let closed: Bool
        /// Seconds from connecting until the response began, or until the close when there was none.
        let elapsed: Double
    }

    let port: Int

    /// Sends `head`, then `body` (all at once, or `drip` bytes every `interval` seconds), and reads until the
    /// server closes the connection or `limit` seconds have passed.
    func send(_ head: [UInt8], body: [UInt8] = [], drip: Int = 0, interval: Double = 0.1, limit: Double = 10) async throws -> Outcome {
        let directory = try TemporaryDirectory()
        let bodyFile = directory.url.appendingPathComponent("body")
        try Data(body).write(to: bodyFile)
        let arguments = ["-c", Self.script, "\(port)", Self.hex(head), bodyFile.path, "\(drip)", "\(interval)", "\(limit)"]
        let output = try await ExternalTool.require("python3", arguments, timeout: limit + 20)
        return try JSONDecoder().decode(Outcome.self, from: Data(output.standardOutput.utf8))
    }

    /// A request head with `Host` and the given header lines.
    static func head(_ method: String, _ target: String, _ headers: [String] = []) -> [UInt8] {
        Array(([ "\(method) \(target) HTTP/1.1", "Host: 127.0.0.1" ] + headers).joined(separator: "\r\n").utf8) + Array("\r\n\r\n".utf8)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static let script = """
        import json, socket, sys, time
        port, head, body = int(sys.argv[1]), bytes.fromhex(sys.argv[2]), open(sys.argv[3], "rb").read()
        drip, interval, limit = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
        s = socket.create_connection(("127.0.0.1", port))
        start = time.time()
        s.sendall(head)
        if not drip and body:
            s.sendall(body)
        s.settimeout(interval)
        received, closed, sent, first = b"", False, 0, None
        while time.time() - start < limit:
            if drip and sent < len(body):
                try:
                    s.sendall(body[sent:sent + drip])
                    sent += drip
                except OSError:
                    pass
            try:
                data = s.recv(65536)
                if not data:
                    closed = True
                    break
                received += data
                first = first or time.time() - start
            except socket.timeout:
                pass
            except OSError:
                closed = True
                break
        elapsed = first if first is not None else time.time() - start
        text = received.decode("latin-1")
        status = int(text.split(" ")[1]) if text.startswith("HTTP/1.1 ") else None
        print(json.dumps({"status": status, "body": text.split("\\r\\n\\r\\n", 1)[-1] if status else "",
                          "closed": closed, "elapsed": elapsed}))
        """
}
