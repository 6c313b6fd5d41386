import Foundation
import VODFFmpeg

/// A first-in first-out queue of bounded capacity between two pipeline threads.
///
/// `push` blocks while the queue is full and `pop` while it is empty, so memory stays bounded whatever the
/// input's length. Both wake up and throw once the cancellation flag is set.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var isClosed = false
    private let capacity: Int
    private let cancellation: CancellationFlag

    init(capacity: Int, cancellation: CancellationFlag) {
        self.capacity = capacity
        self.cancellation = cancellation
    }

    /// Appends an element, waiting while the queue is full.
    func push(_ element: Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity {
            try cancellation.check("queue")
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        items.append(element)
        condition.broadcast()
    }

    /// Marks the end of input: `pop` returns nil once the remaining elements are taken.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Takes the oldest element, waiting while the queue is empty; nil once closed and drained. The queue keeps
    /// no reference to what it handed out, so a decoded picture goes back to the decoder's pool as soon as its
    /// consumer is done with it.
    func pop() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty {
            if isClosed { return nil }
            try cancellation.check("queue")
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        let element = items.removeFirst()
        condition.broadcast()
        return element
    }
}
