import Foundation
import VODTestSupport

/// One kept-alive connection (over Python's plain socket) that sends writes one after another, each once the
/// answers to everything before it have come in full (and its pause has passed), and returns every answer as it
/// came, until the server closes the connection: the bytes a request split over two writes, or several requests
/// in one write, reach the server as.
struct KeptAliveHTTP {
    /// One write and what it is answered with: the methods of the requests it completes, in order.
    struct Write {
        let bytes: [UInt8]
        let answers: [String]
        /// Seconds to wait before sending it.
        var pause = 0.0
    }

    /// One answer: its head, without the `Date` field, and its body.
    struct Answer: Decodable, Equatable {
        let head: [String]
        let body: String
    }

    let port: Int

    func exchange(_ writes: [Write]) async throws -> [Answer] {
        let steps = writes.map { write -> [String: Any] in
            ["bytes": write.bytes.map { String(format: "%02x", $0) }.joined(), "heads": write.answers.map { $0 == "HEAD" }, "pause": write.pause]
        }
        let plan = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let output = try await ExternalTool.require("python3", ["-c", Self.script, "\(port)", plan], timeout: 30)
        return try JSONDecoder().decode([Answer].self, from: Data(output.standardOutput.utf8))
    }

    private static let script = """
        import json, socket, sys, time
        port, steps = int(sys.argv[1]), json.loads(sys.argv[2])
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(10)
        pending, answers = b"", []
        def more():
            data = s.recv(65536)
            if not data:
                print(json.dumps(answers))
                sys.exit(0)
            return data
        def answer(head_only):
            global pending
            while b"\\r\\n\\r\\n" not in pending:
                pending += more()
            head, rest = pending.split(b"\\r\\n\\r\\n", 1)
            lines = head.decode("latin-1").split("\\r\\n")
            length = 0 if head_only else int(next(l.split(":", 1)[1] for l in lines if l.lower().startswith("content-length:")))
            while len(rest) < length:
                rest += more()
            pending = rest[length:]
            return {"head": [l for l in lines if not l.lower().startswith("date:")], "body": rest[:length].decode("latin-1")}
        for step in steps:
            time.sleep(step["pause"])
            try:
                s.sendall(bytes.fromhex(step["bytes"]))
            except OSError:
                break
            for head in step["heads"]:
                answers.append(answer(head))
        print(json.dumps(answers))
        """
}
