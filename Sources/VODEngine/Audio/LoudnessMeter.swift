import Foundation
import VODFFmpeg
import VODModel

/// Measures one audio track's EBU R128 loudness as it is decoded: libavfilter's `ebur128` with true peaks, in a
/// graph of its own fed the decoded frames the encoders get, so nothing is decoded twice.
final class LoudnessMeter {
    private let timeBase: Rational
    private var graph: AudioFilterGraph?
    private let output: Frame
    private var integrated: Double?
    private var range = 0.0
    private var truePeak = 0.0

    /// A meter for audio timed in `timeBase`, the track's stream's.
    init(timeBase: Rational) throws {
        self.timeBase = timeBase
        output = try Frame()
    }

    /// Measures `frame`, a decoded frame of the track.
    func measure(_ frame: Frame) throws {
        if graph == nil {
            graph = try AudioFilterGraph(description: "ebur128=peak=true:metadata=1", like: frame, timeBase: timeBase)
        }
        try graph?.push(frame)
        try drain()
    }

    /// The track's loudness, once every frame is measured; nil when the track held less than a 100 ms block.
    func finish() throws -> Loudness? {
        guard let graph else { return nil }
        try graph.push(nil)
        try drain()
        guard let integrated else { return nil }
        let peak = truePeak > 0 ? 20 * log10(truePeak) : Loudness.silentPeak
        return Loudness(integrated: integrated, range: range, truePeak: peak)
    }

    /// Keeps the running values `ebur128` writes on the frames that complete a block: the last are the track's.
    private func drain() throws {
        guard let graph else { return }
        while try graph.pull(into: output) {
            defer { output.unreference() }
            guard let value = output.metadataNumber("lavfi.r128.I") else { continue }
            integrated = value
            range = output.metadataNumber("lavfi.r128.LRA") ?? range
            truePeak = output.metadataNumber("lavfi.r128.true_peak") ?? truePeak
        }
    }
}
