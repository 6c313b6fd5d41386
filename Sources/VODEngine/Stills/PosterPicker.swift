import Foundation

/// Chooses the poster among a title's keyframes: the one nearest 10 % of the duration that is neither black,
/// nor flat (one colour), nor part of a fade; the 10 % keyframe itself when none qualifies.
enum PosterPicker {
    /// One keyframe looked at: its time in the title and its luma.
    struct Candidate: Sendable, Equatable {
        var time: Double
        var luma: LumaStatistics
    }

    /// Where the poster is sought first, as a fraction of the duration.
    static let preferredFraction = 0.1
    /// Mean luma below this is black (limited range: black is 16).
    static let blackMean = 32.0
    /// A luma deviation below this is a flat picture of one colour.
    static let flatDeviation = 8.0
    /// A picture darker than this fraction of both neighbours is a dip to black between scenes.
    static let dipRatio = 0.6
    /// A mean luma that changes by more than this towards both neighbours, the same way, is mid-fade.
    static let fadeStep = 12.0

    /// How far from the preferred time keyframes are looked at, in seconds, either side.
    static let searchSeconds = 30.0

    /// The span of a title of `duration` seconds whose keyframes are candidates: around 10 % of it.
    static func window(duration: Double) -> ClosedRange<Double> {
        let target = duration * preferredFraction
        return max(0, target - searchSeconds)...(target + searchSeconds)
    }

    /// The index in `candidates` (in time order) of the poster for a title lasting `duration` seconds, or nil
    /// when there is no candidate.
    static func choose(_ candidates: [Candidate], duration: Double) -> Int? {
        let target = duration * preferredFraction
        let order = candidates.indices.sorted {
            let (a, b) = (abs(candidates[$0].time - target), abs(candidates[$1].time - target))
            return a != b ? a < b : candidates[$0].time < candidates[$1].time
        }
        return order.first { qualifies($0, in: candidates) } ?? order.first
    }

    /// Whether keyframe `index` shows a real picture: not black, not flat, not fading.
    static func qualifies(_ index: Int, in candidates: [Candidate]) -> Bool {
        let luma = candidates[index].luma
        guard luma.mean >= blackMean, luma.deviation >= flatDeviation else { return false }
        let neighbours = [index - 1, index + 1].filter { candidates.indices.contains($0) }.map { candidates[$0].luma.mean }
        guard let darkest = neighbours.min() else { return true }
        if luma.mean < dipRatio * darkest { return false }
        if neighbours.count == 2 {
            let (before, after) = (luma.mean - neighbours[0], neighbours[1] - luma.mean)
            if abs(before) > fadeStep, abs(after) > fadeStep, (before > 0) == (after > 0) { return false }
        }
        return true
    }
}
