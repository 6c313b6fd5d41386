import Foundation

/// Runs blocking FFmpeg work on a thread of its own, never on the cooperative pool. Cancelling the calling task
/// sets `cancellation`, which FFmpeg's interrupt callback and the pipeline's stages check, so the work stops
/// within a second.
public enum DedicatedThread {
    public static func run<T: Sendable>(
        _ name: String, cancellation: CancellationFlag = CancellationFlag(), _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread { continuation.resume(with: Result { try body() }) }
                thread.name = name
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
