import Logging
import Synchronization

/// A log handler that keeps every message with its metadata, to check what the server logs.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger at trace level writing here.
    var logger: Logger {
        var logger = Logger(label: "vod-test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Everything logged so far, one line per message.
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.lines.withLock { $0.append("\(event.level) \(event.message) \(all) \(event.source) \(event.file)") }
        }
    }
}
