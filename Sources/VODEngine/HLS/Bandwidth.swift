/// The bitrates a master playlist declares for a rendition, measured from its segments.
enum Bandwidth {
    /// RFC 8216 §4.1 peak: the largest bitrate over any run of consecutive segments lasting between 0.5 and 1.5
    /// times the target duration; the whole rendition when no run qualifies.
    static func peak(of segments: [Segment], targetDuration: Int) -> Int {
        let low = 0.5 * Double(targetDuration)
        let high = 1.5 * Double(targetDuration)
        var best = 0.0
        for first in segments.indices {
            var bytes: Int64 = 0
            var duration = 0.0
            for segment in segments[first...] {
                bytes += segment.bytes
                duration += segment.duration
                if duration > high { break }
                if duration >= low { best = max(best, Double(bytes) * 8 / duration) }
            }
        }
        return best > 0 ? Int(best.rounded(.up)) : average(of: segments)
    }

    /// The average bitrate over the whole rendition.
    static func average(of segments: [Segment]) -> Int {
        let bytes = segments.reduce(Int64(0)) { $0 + $1.bytes }
        let duration = segments.reduce(0.0) { $0 + $1.duration }
        guard duration > 0 else { return 0 }
        return Int((Double(bytes) * 8 / duration).rounded(.up))
    }
}
