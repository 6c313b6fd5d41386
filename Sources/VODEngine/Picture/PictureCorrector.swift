import VODFFmpeg

/// Applies a stream's `PictureCorrection` to its decoded pictures through a libavfilter graph.
///
/// The graph is planned from the first picture, and planned again if the pictures change size or format
/// mid-stream. Pictures that need no correction are passed on as they are.
final class PictureCorrector {
    private let stream: StreamPicture
    private let keepsHDR: Bool
    private let timeBase: Rational
    private var graph: FilterGraph?
    private var format: PictureFormat?
    private let filtered: Frame

    /// A corrector for the SDR rungs or, with `keepsHDR`, for the HDR ones (`PictureCorrection.keepsHDR`).
    init(stream: StreamPicture, timeBase: Rational, keepsHDR: Bool = false) throws {
        self.stream = stream
        self.keepsHDR = keepsHDR
        self.timeBase = timeBase
        filtered = try Frame()
    }

    /// Corrects one decoded picture and passes on every picture that is ready; the filters may hold some back.
    /// A passed-on picture's `pts` and `pkt_duration` are in the stream's time base.
    func push(_ frame: Frame, emit: (Frame) throws -> Void) throws {
        frame.pts = frame.bestEffortTimestamp
        let incoming = PictureFormat(of: frame)
        if incoming != format {
            try finish(emit: emit)
            graph = try PictureCorrection(stream: stream, firstFrame: frame, keepsHDR: keepsHDR).filterDescription.map {
                try FilterGraph(description: $0, input: incoming, timeBase: timeBase)
            }
            format = incoming
        }
        guard let graph else { return try emit(frame) }
        try graph.push(frame)
        try drain(graph, emit: emit)
    }

    /// Passes on the pictures the filters still hold.
    func finish(emit: (Frame) throws -> Void) throws {
        guard let graph else { return }
        try graph.push(nil)
        try drain(graph, emit: emit)
        self.graph = nil
        format = nil
    }

    private func drain(_ graph: FilterGraph, emit: (Frame) throws -> Void) throws {
        while try graph.pull(into: filtered) {
            defer { filtered.unreference() }
            // bwdif doubles the time base for field rate; the duration is copied from the input as it was.
            filtered.setTimestamp(graph.outputTimeBase.rescale(filtered.pts, to: timeBase))
            try emit(filtered)
        }
    }
}
