import Foundation
import Synchronization
import VODEngine

/// Shows a transcode's progress on standard error: a live bar on a terminal, plain lines otherwise.
final class ProgressDisplay: Sendable {
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let lastLine = Mutex(-1)

    init(label: String) {
        self.label = label
    }

    /// Shows the latest progress.
    func update(_ progress: TranscodeProgress) {
        let percent = Int(progress.fraction * 100)
        let done = progress.completedRungs.isEmpty ? "" : " done: " + progress.completedRungs.joined(separator: " ")
        if isTerminal {
            let filled = percent * 30 / 100
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)
            write("\r\u{1B}[K\(label) \(bar) \(percent)%\(done)")
        } else {
            let step = percent / 10
            let shouldPrint = lastLine.withLock { last in
                guard step > last || !progress.completedRungs.isEmpty else { return false }
                last = step
                return true
            }
            if shouldPrint { write("\(label): \(percent)%\(done)\n") }
        }
    }

    /// Ends the live bar's line.
    func finish() {
        if isTerminal { write("\n") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
