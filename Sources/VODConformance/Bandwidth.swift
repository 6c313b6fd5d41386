/// Bit rate measurement over segments, as RFC 8216 §4.1 defines BANDWIDTH and AVERAGE-BANDWIDTH.
public enum Bandwidth {
    /// The peak bit rate in bits per second: the largest `sum(bytes) * 8 / sum(duration)` over any run of consecutive
    /// segments lasting between 0.5 and 1.5 × `targetDuration`; the whole list's rate when no run qualifies.
    public static func peak(segments: [(bytes: Int, duration: Double)], targetDuration: Int) -> Double {
        let shortest = 0.5 * Double(targetDuration) - 1e-9
        let longest = 1.5 * Double(targetDuration) + 1e-9
        var best: Double?
        for start in segments.indices {
            var bytes = 0
            var duration = 0.0
            for segment in segments[start...] {
                bytes += segment.bytes
                duration += segment.duration
                if duration > longest { break }
                if duration >= shortest, duration > 0 {
                    best = max(best ?? 0, Double(bytes) * 8 / duration)
                }
            }
        }
        return best ?? average(segments: segments)
    }

    /// The average bit rate in bits per second: all bytes × 8 over the total duration, 0 when there is no duration.
    public static func average(segments: [(bytes: Int, duration: Double)]) -> Double {
        let duration = segments.reduce(0) { $0 + $1.duration }
        guard duration > 0 else { return 0 }
        return Double(segments.reduce(0) { $0 + $1.bytes }) * 8 / duration
    }
}
