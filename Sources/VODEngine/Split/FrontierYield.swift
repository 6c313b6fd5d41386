import Foundation
import Synchronization
import VODFFmpeg

/// Lets the chunk players wait for have the machine. A split title is watched from its frontier, the earliest
/// chunk not yet done; when several workers on one machine encode chunks of the same title, a later chunk that
/// takes its share of the CPU slows the frontier, and with it the title's publication. A chunk given a
/// `FrontierYield` pauses before each picture while the yield says it is behind (an earlier chunk of its title is
/// being encoded on this machine), and goes on once it is not. The worker sets it from what the catalog says.
public final class FrontierYield: Sendable {
    private let behind = Atomic<Bool>(false)

    /// How long a paused chunk sleeps before it looks again.
    static let pause: Duration = .milliseconds(20)

    public init() {}

    /// Whether an earlier chunk of the title is being encoded on this machine.
    public var isBehind: Bool {
        get { behind.load(ordering: .relaxed) }
        set { behind.store(newValue, ordering: .relaxed) }
    }

    /// Waits while the chunk is behind, until it is not or `cancellation` is set.
    func waitWhileBehind(cancellation: CancellationFlag) {
        while isBehind, !cancellation.isCancelled {
            Thread.sleep(forTimeInterval: Self.pause / .seconds(1))
        }
    }
}
