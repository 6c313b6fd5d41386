import Synchronization

/// A bounded number of places, such as open event streams or uploads in progress: a request takes one for as
/// long as it uses it, and past the bound is refused at once with 503 and `Retry-After`.
final class ConnectionSlots: Sendable {
    /// How long a refused client is asked to wait, in seconds.
    static let retryAfter = 2

    /// The most places taken at once.
    let capacity: Int
    /// What a refused client is told, before when to try again.
    private let refusal: String
    private let taken = Atomic<Int>(0)

    init(capacity: Int, refusal: String) {
        self.capacity = capacity
        self.refusal = refusal
    }

    /// Event streams, SSE and WebSocket together, up to `limits.eventSubscribers`.
    static func eventSubscribers(_ limits: ConnectionLimits) -> ConnectionSlots {
        ConnectionSlots(capacity: limits.eventSubscribers, refusal: "Too many event streams are open")
    }

    /// Upload bodies being received, up to `limits.uploads`.
    static func uploads(_ limits: ConnectionLimits) -> ConnectionSlots {
        ConnectionSlots(capacity: limits.uploads, refusal: "Too many uploads are in progress")
    }

    /// Whether every place is taken now.
    var isFull: Bool { taken.load(ordering: .relaxed) >= capacity }

    /// What a refused client is told: `Too many …; try again in 2 s`.
    var refusalMessage: String { "\(refusal); try again in \(Self.retryAfter) s" }

    /// Takes a place, given back when the returned slot goes away; throws a 503 when all are taken.
    func take() throws -> Slot {
        guard taken.add(1, ordering: .relaxed).newValue <= capacity else {
            taken.subtract(1, ordering: .relaxed)
            throw APIError.busy(refusalMessage, retryAfter: Self.retryAfter)
        }
        return Slot(owner: self)
    }

    fileprivate func giveBack() {
        taken.subtract(1, ordering: .relaxed)
    }

    /// One place taken, given back by `release()` or when the last reference to it goes: when the request, or
    /// the stream that holds it, ends.
    final class Slot: Sendable {
        private let owner: ConnectionSlots
        private let given = Atomic<Bool>(false)

        fileprivate init(owner: ConnectionSlots) {
            self.owner = owner
        }

        /// Gives the place back now; once only: a later call, and the slot going away, give back nothing more.
        func release() {
            guard !given.exchange(true, ordering: .relaxed) else { return }
            owner.giveBack()
        }

        deinit { release() }
    }
}
