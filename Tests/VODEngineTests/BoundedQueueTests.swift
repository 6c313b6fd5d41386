import Foundation
import Testing
@testable import VODEngine
import VODTestSupport
import Synchronization
import VODFFmpeg

/// The queue between the decoder and each rung: order, end of input, and that it lets go of what it handed out.
@Suite(.timeLimit(.minutes(2))) struct BoundedQueueTests {
    final class Picture: Sendable {
        let index: Int
        init(index: Int) { self.index = index }
    }

    /// A popped picture must be freed as soon as its consumer drops it: a queue that kept references to
    /// popped pictures kept about 30 decoded 4k pictures (about 390 MB) alive in the decoder's pool.
    @Test func aPoppedElementIsReleasedOnceItsConsumerDropsIt() throws {
        let queue = BoundedQueue<Picture>(capacity: 2, cancellation: CancellationFlag())
        weak var released: Picture?
        for index in 0..<10 {
            try queue.push(Picture(index: index))
            do {
                let picture = try #require(try queue.pop())
                #expect(picture.index == index)
                released = picture
            }
            #expect(released == nil, "picture \(index) is still referenced after it was popped and dropped")
        }
    }

    @Test func elementsComeOutInOrderAndNilAfterClose() throws {
        let queue = BoundedQueue<Int>(capacity: 3, cancellation: CancellationFlag())
        try queue.push(1)
        try queue.push(2)
        #expect(try queue.pop() == 1)
        try queue.push(3)
        queue.close()
        #expect(try queue.pop() == 2)
        #expect(try queue.pop() == 3)
        #expect(try queue.pop() == nil)
    }

    @Test func aFullQueueHoldsItsProducerUntilSomethingIsTaken() async throws {
        let queue = BoundedQueue<Int>(capacity: 2, cancellation: CancellationFlag())
        let pushed = Mutex(0)
        let done = ThreadEvent()
        Thread {
            for value in 0..<3 {
                try? queue.push(value)
                pushed.withLock { $0 += 1 }
            }
            done.signal()
        }.start()
        try await Task.sleep(for: .milliseconds(500))
        #expect(!done.isSet, "the third push waits for room")
        #expect(pushed.withLock { $0 } == 2)
        #expect(try queue.pop() == 0)
        await done.wait()
        #expect(pushed.withLock { $0 } == 3)
    }
}
