import Foundation

/// What a `Range` header asks of a representation of a given size (RFC 9110 §14).
enum RangeRequest: Equatable {
    /// No usable single range: send the whole representation.
    case whole
    /// Send these bytes with 206.
    case partial(ClosedRange<Int>)
    /// A valid range that lies outside the representation: 416.
    case unsatisfiable

    /// Interprets `header` for a representation of `size` bytes. Multiple ranges and malformed headers are
    /// ignored, as RFC 9110 allows.
    init(header: String, size: Int) {
        guard header.lowercased().hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .whole
            return
        }
        let first = parts[0].trimmingCharacters(in: .whitespaces)
        let last = parts[1].trimmingCharacters(in: .whitespaces)
        switch (Int(first), Int(last)) {
        case (nil, let suffix?) where first.isEmpty && suffix >= 0:
            self = suffix == 0 || size == 0 ? .unsatisfiable : .partial(max(size - suffix, 0)...(size - 1))
        case (let start?, nil) where last.isEmpty && start >= 0:
            self = start >= size ? .unsatisfiable : .partial(start...(size - 1))
        case (let start?, let end?) where start >= 0 && start <= end:
            self = start >= size ? .unsatisfiable : .partial(start...min(end, size - 1))
        default:
            self = .whole
        }
    }
}
