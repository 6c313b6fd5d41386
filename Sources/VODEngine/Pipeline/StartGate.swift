import Dispatch
import Synchronization

/// A gate that threads wait at until it opens, once; opening it again does nothing.
final class StartGate: Sendable {
    private let closed = DispatchGroup()
    private let isOpen = Mutex(false)

    init() {
        closed.enter()
    }

    /// Opens the gate: every thread waiting passes, and every later `wait` returns at once.
    func open() {
        let opens = isOpen.withLock { isOpen in
            defer { isOpen = true }
            return !isOpen
        }
        if opens { closed.leave() }
    }

    /// Waits until the gate is open.
    func wait() {
        closed.wait()
    }
}
