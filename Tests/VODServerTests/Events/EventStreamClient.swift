import Foundation
import VODTestSupport

/// A Server-Sent Events stream read by curl (`curl -N`), an independent client, into a file the test parses.
final class EventStreamClient: @unchecked Sendable {
    /// One event as it came.
    struct Event {
        let id: Int64
        let type: String
        /// The event's JSON: id, type, created_at, media_id and data (the media JSON).
        let json: [String: Any]
        var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
        var mediaID: Int64 { (json["media_id"] as? Int).map(Int64.init) ?? -1 }
    }

    private let process = Process()
    private let output: URL

    /// Starts reading `url`, with `Last-Event-ID: lastEventID` when given and `headers` (`Name: value`).
    init(_ url: String, lastEventID: Int64? = nil, headers: [String] = [], in directory: TemporaryDirectory) throws {
        output = directory.url.appendingPathComponent("sse-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-sN"] + (lastEventID.map { ["-H", "Last-Event-ID: \($0)"] } ?? [])
            + headers.flatMap { ["-H", $0] } + [url]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    /// Whether curl still holds the stream open.
    var isOpen: Bool { process.isRunning }

    func stop() {
        if process.isRunning { process.terminate() }
    }

    /// The raw text received so far.
    var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The complete events received so far, in order.
    var events: [Event] {
        text.components(separatedBy: "\n\n").dropLast().compactMap { block in
            var fields: [String: String] = [:]
            for line in block.split(separator: "\n") where !line.hasPrefix(":") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                fields[String(parts[0])] = String(parts[1].dropFirst())
            }
            guard let id = fields["id"].flatMap({ Int64($0) }), let type = fields["event"], let data = fields["data"],
                let json = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
            else { return nil }
            return Event(id: id, type: type, json: json)
        }
    }

    /// Waits until an event satisfies `condition`.
    func waitFor(_ what: String, timeout: Double = 60, _ condition: @escaping (Event) -> Bool) async throws {
        try await waitUntil(what, timeout: timeout) { self.events.contains(where: condition) }
    }
}
