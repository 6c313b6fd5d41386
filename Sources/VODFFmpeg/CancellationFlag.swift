import CFFmpeg
import Synchronization

/// A flag that FFmpeg's interrupt callback reads, so blocking FFmpeg calls stop soon after `cancel()`.
public final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Asks every FFmpeg call watching this flag to stop.
    public func cancel() { flag.store(true, ordering: .relaxed) }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Throws `FFmpegError.cancelled` when the flag is set.
    public func check(_ operation: @autoclosure () -> String) throws {
        if isCancelled { throw FFmpegError.cancelled(operation()) }
    }

    /// An `AVIOInterruptCB` that stops FFmpeg I/O once this flag is set. The flag must outlive its use.
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<CancellationFlag>.fromOpaque(opaque).takeUnretainedValue().isCancelled ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque()
        )
    }
}
