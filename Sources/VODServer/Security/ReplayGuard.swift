import Synchronization

/// Remembers the signatures of accepted writes for as long as their timestamps are valid, so that a signed
/// request cannot be sent twice. Memory is bounded: at `capacity` live signatures, new ones are refused.
final class ReplayGuard: Sendable {
    private let window: Int64
    private let capacity: Int
    /// Signature → the Unix time after which its timestamp is no longer accepted anyway.
    private let seen = Mutex<[String: Int64]>([:])

    init(window: Int64, capacity: Int) {
        self.window = window
        self.capacity = capacity
    }

    enum Outcome: Equatable {
        case accepted
        case replayed
        case full
    }

    /// Whether `signature` has already been used.
    func hasSeen(_ signature: String) -> Bool {
        seen.withLock { $0[signature] != nil }
    }

    /// Records `signature`, stamped `timestamp`, as used at `now`, unless it already was.
    func remember(_ signature: String, timestamp: Int64, now: Int64) -> Outcome {
        seen.withLock { seen in
            guard seen[signature] == nil else { return .replayed }
            if seen.count >= capacity { seen = seen.filter { $0.value >= now } }
            guard seen.count < capacity else { return .full }
            seen[signature] = timestamp + window
            return .accepted
        }
    }

    /// How many signatures are remembered.
    var count: Int { seen.withLock { $0.count } }
}
