import Foundation
import Synchronization

/// A title's CRF while `QualityAnalysis` works it out on a thread of its own, for a title published as it grows:
/// its rungs start at `RateControl.defaultCRF`, so the first segment waits for nothing, and take the title's CRF
/// at the second segment's IDR; the first segment is then encoded again at it (`TranscodeJob.replaceFastStart`).
final class PendingQuality: Sendable {
    private let result = Mutex<Result<QualityChoice, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `analyse` on a thread of its own, at the priority of the rungs that yield to the largest one.
    init(_ analyse: @escaping @Sendable () throws -> QualityChoice) {
        let thread = Thread { [self] in
            RungPriority.yieldToLargestRung()
            let outcome = Result { try analyse() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.name = "vod.quality"
        thread.start()
    }

    /// The analysis's choice, once it is made: waits for it, and throws what it threw.
    func choice() throws -> QualityChoice {
        done.wait()
        defer { done.signal() }
        return try result.withLock { $0! }.get()
    }
}
