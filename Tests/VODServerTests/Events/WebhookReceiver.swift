import Foundation
import Hummingbird
import Logging
import Synchronization
import VODTestSupport

/// A webhook receiver on loopback: a real HTTP server that keeps what it was sent and answers each request with
/// the status `answer` gives for it (by its number, from 1).
final class WebhookReceiver: Sendable {
    /// One request as it came.
    struct Received: Sendable {
        let signature: String?
        let eventType: String?
        let body: [UInt8]
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:] }
        var eventID: Int64 { (json["id"] as? Int).map(Int64.init) ?? -1 }
    }

    let port: Int
    private let received = Mutex<[Received]>([])
    private let server = Mutex<Task<Void, any Error>?>(nil)
    private let answer: @Sendable (Int) -> HTTPResponse.Status

    init(answer: @escaping @Sendable (Int) -> HTTPResponse.Status = { _ in .noContent }) throws {
        self.port = try LoopbackPort.free()
        self.answer = answer
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Everything received so far, in order.
    var requests: [Received] { received.withLock { $0 } }

    /// Starts listening, and returns once it does.
    func start() async throws {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let number = self.received.withLock { received in
                received.append(Received(signature: request.headers[HTTPFields.Element.Name("Vod-Signature")!],
                                         eventType: request.headers[HTTPFields.Element.Name("Vod-Event-Type")!],
                                         body: Array(buffer: body)))
                return received.count
            }
            return Response(status: self.answer(number))
        }
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        server.withLock { $0 = Task { try await app.runService(gracefulShutdownSignals: []) } }
        try await waitUntil("the receiver listens on \(port)", timeout: 10) {
            (try? await ExternalTool.run("curl", ["-s", "-o", "/dev/null", "http://127.0.0.1:\(self.port)/"]))?.status == 0
        }
    }

    /// Stops listening.
    func stop() async {
        let task = server.withLock { $0 }
        task?.cancel()
        _ = await task?.result
    }
}
