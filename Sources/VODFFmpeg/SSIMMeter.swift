import CFFmpeg

/// Scores pictures against their originals with libavfilter's `ssim` filter: the structural similarity of
/// every plane, weighted by its size (`lavfi.ssim.All`), 1 for identical pictures.
///
/// Both pictures of a pair carry the same timestamp, the same size and pixel format; scores come out in the
/// order the pairs went in, some only once `finish` says no more pairs follow.
public final class SSIMMeter: @unchecked Sendable {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let main: UnsafeMutablePointer<AVFilterContext>
    private let reference: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let scored: Frame
    /// The score of each pair that has come out of the filter so far.
    public private(set) var scores: [Double] = []

    /// A meter for pictures of `format`, timed in `timeBase`.
    public init(format: PictureFormat, timeBase: Rational) throws {
        guard let graph = avfilter_graph_alloc() else { throw FFmpegError.outOfMemory("allocate filter graph") }
        self.graph = graph
        do {
            let arguments = "video_size=\(format.width)x\(format.height):pix_fmt=\(format.format.rawValue)"
                + ":time_base=\(timeBase.numerator)/\(max(timeBase.denominator, 1)):pixel_aspect=1/1"
            main = try FilterGraph.create("buffer", name: "main", arguments: arguments, in: graph)
            reference = try FilterGraph.create("buffer", name: "reference", arguments: arguments, in: graph)
            let ssim = try FilterGraph.create("ssim", name: "ssim", arguments: nil, in: graph)
            sink = try FilterGraph.create("buffersink", name: "out", arguments: nil, in: graph)
            try check(avfilter_link(main, 0, ssim, 0), "link ssim")
            try check(avfilter_link(reference, 0, ssim, 1), "link ssim")
            try check(avfilter_link(ssim, 0, sink, 0), "link ssim")
            try check(avfilter_graph_config(graph, nil), "configure ssim")
            scored = try Frame()
        } catch {
            avfilter_graph_free(&self.graph)
            throw error
        }
    }

    deinit { avfilter_graph_free(&graph) }

    /// Scores `picture` against `original`, which must carry the same timestamp.
    public func add(_ picture: Frame, original: Frame) throws {
        let flags = Int32(AV_BUFFERSRC_FLAG_KEEP_REF)
        try check(av_buffersrc_add_frame_flags(main, picture.pointer, flags), "score picture")
        try check(av_buffersrc_add_frame_flags(reference, original.pointer, flags), "score picture")
        try collect()
    }

    /// Says no more pairs follow and returns every score.
    public func finish() throws -> [Double] {
        try check(av_buffersrc_add_frame_flags(main, nil, 0), "score picture")
        try check(av_buffersrc_add_frame_flags(reference, nil, 0), "score picture")
        try collect()
        return scores
    }

    private func collect() throws {
        while true {
            let result = av_buffersink_get_frame(sink, scored.pointer)
            if result == vod_averror_eagain() || result == vod_averror_eof() { return }
            try check(result, "score picture")
            if let entry = av_dict_get(scored.pointer.pointee.metadata, "lavfi.ssim.All", nil, 0),
               let score = Double(String(cString: entry.pointee.value)) {
                scores.append(score)
            }
            scored.unreference()
        }
    }
}
