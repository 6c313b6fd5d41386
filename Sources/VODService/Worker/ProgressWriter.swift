import Synchronization
import VODCatalog
import VODEngine
import VODModel

/// Keeps the engine's latest progress and writes it to the catalog at most once per interval.
///
/// The engine reports from its own threads, often; the catalog is written only from `run` and `flush`.
final class ProgressWriter: Sendable {
    private let latest = Mutex<TranscodeProgress?>(nil)

    /// Takes a report from the engine; never blocks.
    func report(_ progress: TranscodeProgress) {
        latest.withLock { $0 = progress }
    }

    /// Writes the latest progress, when it changed, every `interval` seconds until the task is cancelled, and
    /// records each write as a `media.progress` event.
    func run(_ job: JobLease, catalog: any JobQueue, events: EventRecorder, interval: Duration) async {
        var written: TranscodeProgress?
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard let progress = latest.withLock({ $0 }), progress != written else { continue }
            written = progress
            if (try? await Self.write(progress, of: job, to: catalog)) == true { await events.record(.progress, id: job.id) }
        }
    }

    /// Writes the latest progress now: the last report of a finished transcode has every rung at 1.
    func flush(_ job: JobLease, catalog: any JobQueue) async throws {
        guard let progress = latest.withLock({ $0 }) else { return }
        _ = try await Self.write(progress, of: job, to: catalog)
    }

    private static func write(_ progress: TranscodeProgress, of job: JobLease, to catalog: any JobQueue) async throws -> Bool {
        try await catalog.recordProgress(job, fraction: progress.fraction, rungsJSON: rungsJSON(progress.rungs))
    }

    /// `[{"rung": "720p", "progress": 0.42, "listed": true}, …]` in ladder order; nil for an audio-only title.
    static func rungsJSON(_ rungs: [RungProgress]) -> String? {
        guard !rungs.isEmpty else { return nil }
        return "[" + rungs.map { rung in
            typealias Key = Media.RungProgress.CodingKeys
            var object = OrderedJSONObject()
            object.add(Key.rung, rung.name)
            object.add(Key.progress, (rung.fraction * 1000).rounded() / 1000)
            object.add(Key.listed, rung.listed)
            return object.json
        }.joined(separator: ",") + "]"
    }
}
