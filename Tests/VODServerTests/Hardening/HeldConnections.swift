import Foundation
import VODTestSupport

/// Holds connections open against a server over plain sockets (Python's): event streams (SSE and WebSocket)
/// and uploads whose body has only begun, then sends one more request past them, frees the first held one and
/// sends another, and reports what each got.
struct HeldConnections {
    /// What one request got back.
    struct Answer: Decodable {
        /// The status code, or nil when nothing came back within the time limit.
        let status: Int?
        /// The `Retry-After` header, when there was one.
        let retryAfter: String?
        /// The response body as far as it came, as text (an open stream's first bytes).
        let body: String
    }

    /// What the held requests got, then the one past them, then the one after the first held was closed.
    struct Outcome: Decodable {
        let held: [Answer]
        let past: Answer
        let again: Answer
        /// Seconds from closing the first held connection to an answer other than 503 (asked every 0.25 s).
        let freedAfter: Double
    }

    /// A request the script knows how to send: `sse`, `ws`, `upload` (an upload whose 10 MB body has only
    /// begun) or `small-upload` (a whole upload of a few bytes that are not media).
    enum Kind: String {
        case sse, ws, upload
        case smallUpload = "small-upload"
    }

    let port: Int

    /// Opens `held` one after the other and keeps them open, then sends `past`, then closes the first held
    /// connection and sends `again` until it is not refused with 503.
    func run(holding held: [Kind], past: Kind, again: Kind) async throws -> Outcome {
        let arguments = ["-c", Self.script, "\(port)", held.map(\.rawValue).joined(separator: ","), past.rawValue, again.rawValue]
        let output = try await ExternalTool.require("python3", arguments, timeout: 90)
        return try JSONDecoder().decode(Outcome.self, from: Data(output.standardOutput.utf8))
    }

    private static let script = """
        import json, socket, sys, time
        port, held, past, again = int(sys.argv[1]), sys.argv[2].split(","), sys.argv[3], sys.argv[4]
        boundary = "heldboundary"
        def form(size, declared):
            head = ("--%s\\r\\nContent-Disposition: form-data; name=\\"file\\"; filename=\\"clip.mp4\\"\\r\\n"
                    "Content-Type: video/mp4\\r\\n\\r\\n" % boundary).encode()
            tail = ("\\r\\n--%s--\\r\\n" % boundary).encode()
            length = declared or len(head) + size + len(tail)
            return length, head + b"\\x01" * size + (b"" if declared else tail)
        def request(kind):
            if kind == "sse":
                return b"GET /api/events HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n"
            if kind == "ws":
                return (b"GET /api/ws HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n"
                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n")
            length, body = form(4096, 10000000) if kind == "upload" else form(64, None)
            return ("POST /api/media HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Type: multipart/form-data; boundary=%s\\r\\n"
                    "Content-Length: %d\\r\\n\\r\\n" % (boundary, length)).encode() + body
        def answer(s, kind, limit):
            s.settimeout(0.2)
            received, start = b"", time.time()
            while time.time() - start < limit:
                try:
                    data = s.recv(65536)
                except socket.timeout:
                    data = None
                if data == b"":
                    break
                if data:
                    received += data
                if b"\\r\\n\\r\\n" in received:
                    head, body = received.split(b"\\r\\n\\r\\n", 1)
                    lines = head.decode("latin-1").split("\\r\\n")
                    headers = {l.split(":", 1)[0].lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
                    length = int(headers.get("content-length", "-1"))
                    if length < 0 or len(body) >= length:
                        return {"status": int(lines[0].split(" ")[1]), "retryAfter": headers.get("retry-after"),
                                "body": body.decode("utf-8", "replace")}
            return {"status": None, "retryAfter": None, "body": received.decode("latin-1")}
        def send(kind):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(request(kind))
            return s
        sockets, answers = [], []
        for kind in held:
            s = send(kind)
            sockets.append(s)
            # An upload still sending its body gets no answer: wait until the server has taken it in.
            answers.append(answer(s, kind, 1.0 if kind == "upload" else 10))
        extra = send(past)
        past_answer = answer(extra, past, 10)
        extra.close()
        sockets[0].close()
        # A client told 503 would wait for Retry-After; this one asks every quarter second, to see how soon the
        # server frees the place once the client has closed.
        closed = time.time()
        while True:
            again_answer = answer(send(again), again, 30)
            if again_answer["status"] != 503 or time.time() - closed > 30:
                break
            time.sleep(0.25)
        freed_after = time.time() - closed
        print(json.dumps({"held": answers, "past": past_answer, "again": again_answer, "freedAfter": freed_after}))
        """
}
