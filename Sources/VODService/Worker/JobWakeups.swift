import Foundation
import Synchronization

/// Lets idle work loops sleep until a job may be waiting (the catalog's job signals) or their poll interval
/// has passed, whichever comes first.
package final class JobWakeups: Sendable {
    private enum Waiter {
        case waiting(CheckedContinuation<Void, Never>)
        /// The sleep ended before the waiter registered: it must not wait.
        case ended
    }

    private let waiters = Mutex<[UUID: Waiter]>([:])

    /// No loop sleeping yet.
    package init() {}

    /// Wakes every sleeping loop.
    package func wakeAll() {
        let sleeping = waiters.withLock { waiters in
            defer { waiters = waiters.filter { if case .ended = $0.value { true } else { false } } }
            return waiters.values.compactMap { if case .waiting(let continuation) = $0 { continuation } else { nil } }
        }
        sleeping.forEach { $0.resume() }
    }

    /// Returns after `duration`, or earlier when `wakeAll` is called.
    package func sleep(upTo duration: Duration) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask {
                await withCheckedContinuation { continuation in
                    let ended = self.waiters.withLock { waiters in
                        if case .ended = waiters[id] {
                            waiters[id] = nil
                            return true
                        }
                        waiters[id] = .waiting(continuation)
                        return false
                    }
                    if ended { continuation.resume() }
                }
            }
            await group.next()
            group.cancelAll()
            let waiting = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
                switch waiters[id] {
                case .waiting(let continuation):
                    waiters[id] = nil
                    return continuation
                case .ended, nil:
                    waiters[id] = .ended
                    return nil
                }
            }
            waiting?.resume()
        }
    }
}
