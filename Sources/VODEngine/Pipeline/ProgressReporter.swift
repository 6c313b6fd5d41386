import Synchronization
import VODModel

/// Throttles progress reports: at most one per percent of source time decoded or of a rung encoded, plus one
/// per finished rung.
final class ProgressReporter: Sendable {
    private struct State {
        var fraction = 0.0
        var completed: [String] = []
        var rungs: [RungProgress] = []
        var duration = 0.0
    }

    private let report: @Sendable (TranscodeProgress) -> Void
    private let state = Mutex(State())

    init(report: @escaping @Sendable (TranscodeProgress) -> Void) {
        self.report = report
    }

    /// The rungs to follow, in ladder order, and the source's duration in seconds (0 when unknown).
    func follow(rungs: [String], duration: Double) {
        state.withLock { state in
            state.rungs = rungs.map { RungProgress(name: $0, fraction: 0) }
            state.duration = duration
        }
    }

    /// Source time decoded, as a fraction of the whole.
    func advance(_ fraction: Double) {
        update { state in
            guard fraction >= state.fraction + 0.01 else { return false }
            state.fraction = fraction
            return true
        }
    }

    /// Rung `name` has been given `seconds` of pictures to encode.
    func encoded(rung name: String, seconds: Double) {
        update { state in
            guard state.duration > 0, let index = state.rungs.firstIndex(where: { $0.name == name }) else { return false }
            let fraction = min(seconds / state.duration, 1)
            guard fraction >= state.rungs[index].fraction + 0.01 else { return false }
            state.rungs[index].fraction = fraction
            return true
        }
    }

    /// The master now lists `rungs` (and goes on listing them).
    func listed(_ rungs: [String]) {
        update { state in
            let added = state.rungs.indices.filter { !state.rungs[$0].listed && rungs.contains(state.rungs[$0].name) }
            added.forEach { state.rungs[$0].listed = true }
            return !added.isEmpty
        }
    }

    /// A rung's rendition is complete.
    func complete(rung: String) {
        update { state in
            state.completed.append(rung)
            if let index = state.rungs.firstIndex(where: { $0.name == rung }) { state.rungs[index].fraction = 1 }
            return true
        }
    }

    /// Applies `change` and reports the result when it says the change is worth reporting.
    private func update(_ change: (inout State) -> Bool) {
        let update = state.withLock { state -> TranscodeProgress? in
            guard change(&state) else { return nil }
            return TranscodeProgress(fraction: state.fraction, completedRungs: state.completed, rungs: state.rungs)
        }
        if let update { report(update) }
    }
}
