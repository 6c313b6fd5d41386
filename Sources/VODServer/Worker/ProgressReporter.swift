import Synchronization
import VODCatalog

/// Keeps the engine's latest progress and writes it to the catalog at most once per interval.
///
/// The engine reports from its own threads, often; the catalog is written only from `run`.
final class ProgressReporter: Sendable {
    private let latest = Mutex<Double?>(nil)

    /// Takes a report from the engine; never blocks.
    func report(_ fraction: Double) {
        latest.withLock { $0 = fraction }
    }

    /// Writes the latest fraction, when it changed, every `interval` seconds until the task is cancelled.
    func run(_ job: JobLease, catalog: any MediaCatalog, interval: Duration) async {
        var written: Double?
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard let fraction = latest.withLock({ $0 }), fraction != written else { continue }
            written = fraction
            _ = try? await catalog.recordProgress(job, fraction: fraction)
        }
    }
}
