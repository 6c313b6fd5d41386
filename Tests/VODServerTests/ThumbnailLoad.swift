import Foundation
import Synchronization
import VODEngine
@testable import VODServer
import VODTestSupport

/// Counts the thumbnails a server renders and the most rendering at once, by wrapping its `renderThumbnail`;
/// each render first waits `pause` seconds on the renderer's thread, as a heavy picture would.
final class RenderWatch: Sendable {
    private let state = Mutex((running: 0, peak: 0, count: 0))
    let pause: Double

    init(pause: Double = 0) {
        self.pause = pause
    }

    /// Renders done so far.
    var count: Int { state.withLock { $0.count } }
    /// The most renders that ran at once.
    var peak: Int { state.withLock { $0.peak } }

    func watch(_ configuration: inout VODServerConfiguration) {
        let render = configuration.renderThumbnail
        configuration.renderThumbnail = { [self] source, snapped in
            state.withLock { state in
                state.running += 1
                state.count += 1
                state.peak = max(state.peak, state.running)
            }
            defer { state.withLock { $0.running -= 1 } }
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            return try render(source, snapped)
        }
    }
}

/// HTTP clients in another process (Python's), so that what they cost is not the server's to pay.
enum LoopbackClients {
    /// One answer of `concurrently`.
    struct Answer: Decodable {
        let path: String
        let status: Int
        let retryAfter: String?
        let contentType: String?
        /// The body when it is not a picture.
        let text: String

        enum CodingKeys: String, CodingKey {
            case path, status, text
            case retryAfter = "retry_after"
            case contentType = "content_type"
        }
    }

    /// Asks every path at once, one connection each, all sent together once every connection is open.
    static func concurrently(_ paths: [String], port: Int) async throws -> [Answer] {
        let encoded = String(decoding: try JSONEncoder().encode(paths), as: UTF8.self)
        let output = try await ExternalTool.require("python3", ["-c", concurrentScript, "\(port)", encoded], timeout: 60)
        return try JSONDecoder().decode([Answer].self, from: Data(output.standardOutput.utf8))
    }

    /// The seconds each `GET path` took, asked one after another on a new connection each, 10 ms apart, for
    /// `seconds`; any answer but 200 fails.
    static func latencies(of path: String, port: Int, seconds: Double) async throws -> [Double] {
        let output = try await ExternalTool.require("python3", ["-c", latencyScript, "\(port)", path, "\(seconds)"], timeout: seconds + 60)
        return try JSONDecoder().decode([Double].self, from: Data(output.standardOutput.utf8))
    }

    /// The 99th percentile of `values`.
    static func p99(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.down)))]
    }

    private static let concurrentScript = """
        import http.client, json, sys, threading
        port, paths = int(sys.argv[1]), json.loads(sys.argv[2])
        ready = threading.Barrier(len(paths))
        answers = [None] * len(paths)
        def ask(index, path):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.connect()
            ready.wait()
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            picture = response.getheader("Content-Type") == "image/jpeg"
            answers[index] = {"path": path, "status": response.status, "retry_after": response.getheader("Retry-After"),
                              "content_type": response.getheader("Content-Type"),
                              "text": "" if picture else body.decode("utf-8", "replace")}
        threads = [threading.Thread(target=ask, args=(index, path)) for index, path in enumerate(paths)]
        for thread in threads: thread.start()
        for thread in threads: thread.join()
        print(json.dumps(answers))
        """

    private static let latencyScript = """
        import http.client, json, sys, time
        port, path, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
        latencies, end = [], time.monotonic() + seconds
        while time.monotonic() < end:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            start = time.perf_counter()
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            latencies.append(time.perf_counter() - start)
            connection.close()
            if response.status != 200: sys.exit("GET %s answered %d" % (path, response.status))
            time.sleep(0.01)
        print(json.dumps(latencies))
        """
}
