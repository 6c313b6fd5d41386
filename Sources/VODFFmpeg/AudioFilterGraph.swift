import CFFmpeg

/// Owns a libavfilter graph with one audio input and one audio output, such as `ebur128=peak=true:metadata=1`.
///
/// The graph is built for the format of the first frame pushed; frames go in with `push` and come out with `pull`,
/// and `push(nil)` flushes what the filters still hold.
public final class AudioFilterGraph: @unchecked Sendable {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// Builds the graph `description` for audio like `frame`, timed in `timeBase`. With `keepsFormat`, what comes
    /// out has the sample format, rate and channel layout that went in, whatever the filters produce.
    public init(description: String, like frame: Frame, timeBase: Rational, keepsFormat: Bool = false) throws {
        guard let graph = avfilter_graph_alloc() else { throw FFmpegError.outOfMemory("allocate filter graph") }
        self.graph = graph
        do {
            let format = String(cString: av_get_sample_fmt_name(AVSampleFormat(rawValue: frame.pointer.pointee.format)))
            let rate = frame.pointer.pointee.sample_rate
            let layout = Self.layoutName(of: frame)
            let arguments = "time_base=\(timeBase.numerator)/\(max(timeBase.denominator, 1)):sample_rate=\(rate)"
                + ":sample_fmt=\(format):channel_layout=\(layout)"
            source = try FilterGraph.create("abuffer", name: "in", arguments: arguments, in: graph)
            sink = try FilterGraph.create("abuffersink", name: "out", arguments: nil, in: graph)
            let chain = keepsFormat
                ? "\(description),aresample=\(rate),aformat=sample_fmts=\(format):sample_rates=\(rate):channel_layouts=\(layout)"
                : description
            try FilterGraph.parse(chain, between: source, and: sink, in: graph)
            try check(avfilter_graph_config(graph, nil), "configure filters \(chain)")
        } catch {
            avfilter_graph_free(&self.graph)
            throw error
        }
    }

    deinit { avfilter_graph_free(&graph) }

    /// When `frame`, pulled from the graph, starts in seconds, in the time of the frames that went in; nil when
    /// the filters left it untimed.
    public func time(of frame: Frame) -> Double? {
        frame.pts == vod_nopts_value() ? nil : Rational(av_buffersink_get_time_base(sink)).seconds(frame.pts)
    }

    /// Sends audio into the graph; nil says no more follows, so the filters let go of what they hold.
    public func push(_ frame: Frame?) throws {
        try FilterGraph.send(frame, to: source, "filter audio")
    }

    /// Takes the next filtered audio into `frame`, or returns false when the graph needs more input or is done.
    public func pull(into frame: Frame) throws -> Bool {
        try FilterGraph.receive(from: sink, into: frame, "filter audio")
    }

    /// The frame's channel layout as libavfilter names it, such as `stereo` or `5.1(side)`; the default layout of
    /// its channel count when the decoder gives no order.
    private static func layoutName(of frame: Frame) -> String {
        var layout = AVChannelLayout()
        defer { av_channel_layout_uninit(&layout) }
        let given = frame.pointer.pointee.ch_layout
        if given.order == AV_CHANNEL_ORDER_UNSPEC || given.nb_channels == 0 || av_channel_layout_copy(&layout, &frame.pointer.pointee.ch_layout) < 0 {
            av_channel_layout_default(&layout, max(given.nb_channels, 1))
        }
        var name = [CChar](repeating: 0, count: 128)
        _ = av_channel_layout_describe(&layout, &name, name.count)
        return String(cString: name)
    }
}
