import Synchronization

/// A one-time event that a plain thread sets and a test awaits, without blocking a thread of Swift's
/// cooperative pool as a semaphore's wait would.
public final class ThreadEvent: Sendable {
    private let state = Mutex<(isSet: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    /// Whether the event has happened.
    public var isSet: Bool { state.withLock { $0.isSet } }

    /// Marks the event as happened and resumes everyone waiting for it.
    public func signal() {
        let waiters = state.withLock { state in
            state.isSet = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the event has happened.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let happened = state.withLock { state in
                if !state.isSet { state.waiters.append(continuation) }
                return state.isSet
            }
            if happened { continuation.resume() }
        }
    }
}
