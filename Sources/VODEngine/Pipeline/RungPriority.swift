#if canImport(Glibc)
import Glibc
#endif
import VODFFmpeg

/// Which rung gets the CPU first when the rungs compete for it.
///
/// The largest rung is the critical path: its encoder has the most work and the least parallelism, and the
/// decoder runs only as far ahead of it as its queue allows. The other rungs run at a lower priority, so they
/// take the time the largest rung leaves (while its frame threads wait on each other, say) instead of slowing
/// it down. They cannot fall behind for long: once a smaller rung's queue is full, the decoder, and with it
/// the largest rung, waits for it.
enum RungPriority {
    /// How many nice steps below the largest rung the other rungs run.
    static let niceness: Int32 = 5

    /// Lowers the priority of the calling thread, and of the threads it starts from now on, by `niceness`.
    /// On Linux a thread has a priority of its own, so the rest of the process is not affected.
    static func yieldToLargestRung() {
        #if canImport(Glibc)
        _ = nice(niceness)
        #endif
    }

    /// Lowers the calling thread like `yieldToLargestRung`, for a chunk of a split title after its first: the
    /// first chunk makes the title playable, so where workers share a machine it gets the CPU first.
    static func yieldToFirstChunk() {
        yieldToLargestRung()
    }

    /// Runs `body` on a thread of its own (`DedicatedThread`) lowered like `yieldToFirstChunk`.
    static func onLoweredThread<T: Sendable>(
        _ name: String, cancellation: CancellationFlag, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await DedicatedThread.run(name, cancellation: cancellation) {
            yieldToFirstChunk()
            return try body()
        }
    }

    /// How many nice steps below the first group of a title published as it grows the other groups run.
    static let laggingNiceness: Int32 = 10

    /// Lowers the calling thread, and the threads it starts from now on, by `laggingNiceness`: for the decode of
    /// the rungs that join a growing title's master later, so that the rungs that make it playable, and the
    /// audio, get the CPU first (`TranscodeJob.publicationGroups`).
    static func yieldToLeadingRungs() {
        #if canImport(Glibc)
        _ = nice(laggingNiceness)
        #endif
    }

    /// The index of the rung with the most pixels, which keeps the normal priority.
    static func largest(of plan: [PlannedRung]) -> Int? {
        plan.indices.max { plan[$0].width * plan[$0].height < plan[$1].width * plan[$1].height }
    }
}
