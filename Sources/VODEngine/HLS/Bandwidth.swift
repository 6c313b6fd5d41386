/// The bitrates a master playlist declares for a stream, measured from the pieces its playlist lists.
enum Bandwidth {
    /// One listed piece: a segment, or an I-frame's byte range.
    typealias Piece = (bytes: Int64, duration: Double)

    /// RFC 8216 §4.1 peak: the largest bitrate over any run of consecutive pieces lasting between 0.5 and 1.5
    /// times the target duration; the whole stream when no run qualifies.
    static func peak(of pieces: [Piece], targetDuration: Int) -> Int {
        let low = 0.5 * Double(targetDuration)
        let high = 1.5 * Double(targetDuration)
        var best = 0.0
        for first in pieces.indices {
            var bytes: Int64 = 0
            var duration = 0.0
            for piece in pieces[first...] {
                bytes += piece.bytes
                duration += piece.duration
                if duration > high { break }
                if duration >= low { best = max(best, Double(bytes) * 8 / duration) }
            }
        }
        return best > 0 ? Int(best.rounded(.up)) : average(of: pieces)
    }

    /// The average bitrate over the whole stream.
    static func average(of pieces: [Piece]) -> Int {
        let bytes = pieces.reduce(Int64(0)) { $0 + $1.bytes }
        let duration = pieces.reduce(0.0) { $0 + $1.duration }
        guard duration > 0 else { return 0 }
        return Int((Double(bytes) * 8 / duration).rounded(.up))
    }
}

extension Rendition {
    /// The segments as bandwidth pieces.
    var segmentPieces: [Bandwidth.Piece] { segments.map { ($0.bytes, $0.duration) } }

    /// The I-frame byte ranges as bandwidth pieces.
    var iFramePieces: [Bandwidth.Piece] { iFrames.map { ($0.length, $0.duration) } }
}
