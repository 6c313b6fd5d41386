import CFFmpeg

/// Owns a libavfilter graph with one video input and one video output, such as
/// `bwdif=mode=send_frame,format=yuv420p`.
///
/// Frames go in with `push` and come out with `pull`; `push(nil)` flushes what the filters still hold.
public final class FilterGraph: @unchecked Sendable {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// Builds the graph `description` for pictures of `input`, in the time base `timeBase`.
    public init(description: String, input: PictureFormat, timeBase: Rational, threads: Int32 = 0) throws {
        guard let graph = avfilter_graph_alloc() else { throw FFmpegError.outOfMemory("allocate filter graph") }
        self.graph = graph
        graph.pointee.nb_threads = threads
        do {
            let aspect = input.sampleAspectRatio.numerator > 0 ? input.sampleAspectRatio : Rational(1, 1)
            let arguments = "video_size=\(input.width)x\(input.height):pix_fmt=\(input.format.rawValue)"
                + ":time_base=\(timeBase.numerator)/\(max(timeBase.denominator, 1)):pixel_aspect=\(aspect.numerator)/\(aspect.denominator)"
            source = try Self.create("buffer", name: "in", arguments: arguments, in: graph)
            sink = try Self.create("buffersink", name: "out", arguments: nil, in: graph)
            try Self.parse(description, between: source, and: sink, in: graph)
            try check(avfilter_graph_config(graph, nil), "configure filters \(description)")
        } catch {
            avfilter_graph_free(&self.graph)
            throw error
        }
    }

    deinit { avfilter_graph_free(&graph) }

    /// The time base of the pictures that come out, which a filter such as bwdif may change.
    public var outputTimeBase: Rational { Rational(av_buffersink_get_time_base(sink)) }

    /// Sends a picture into the graph; nil says no more pictures follow, so the filters let go of what they hold.
    public func push(_ frame: Frame?) throws {
        try Self.send(frame, to: source, "filter picture")
    }

    /// Takes the next filtered picture into `frame`, or returns false when the graph needs more input or is done.
    public func pull(into frame: Frame) throws -> Bool {
        try Self.receive(from: sink, into: frame, "filter picture")
    }

    /// Sends `frame` (nil at the end) into the buffer source `source`, keeping the caller's reference.
    static func send(_ frame: Frame?, to source: UnsafeMutablePointer<AVFilterContext>, _ action: String) throws {
        try check(av_buffersrc_add_frame_flags(source, frame?.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), action)
    }

    /// Takes the next frame out of the buffer sink `sink` into `frame`; false when it needs more input or is done.
    static func receive(from sink: UnsafeMutablePointer<AVFilterContext>, into frame: Frame, _ action: String) throws -> Bool {
        let result = av_buffersink_get_frame(sink, frame.pointer)
        if result == vod_averror_eagain() || result == vod_averror_eof() { return false }
        try check(result, action)
        return true
    }

    /// Creates filter `filter`, named `name`, with `arguments`, in `graph`.
    static func create(
        _ filter: String, name: String, arguments: String?, in graph: UnsafeMutablePointer<AVFilterGraph>
    ) throws -> UnsafeMutablePointer<AVFilterContext> {
        var context: UnsafeMutablePointer<AVFilterContext>?
        try check(avfilter_graph_create_filter(&context, avfilter_get_by_name(filter), name, arguments, nil, graph),
                  "create filter \(filter)")
        return context!
    }

    static func parse(
        _ description: String, between source: UnsafeMutablePointer<AVFilterContext>,
        and sink: UnsafeMutablePointer<AVFilterContext>, in graph: UnsafeMutablePointer<AVFilterGraph>
    ) throws {
        // avfilter_graph_parse_ptr replaces both lists by what it left unlinked; those are what is freed.
        var outputs = avfilter_inout_alloc()
        var inputs = avfilter_inout_alloc()
        defer {
            avfilter_inout_free(&outputs)
            avfilter_inout_free(&inputs)
        }
        guard let output = outputs, let input = inputs else { throw FFmpegError.outOfMemory("allocate filter links") }
        output.pointee.name = av_strdup("in")
        output.pointee.filter_ctx = source
        input.pointee.name = av_strdup("out")
        input.pointee.filter_ctx = sink
        try check(avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil),
                  "parse filters \(description)")
    }
}

/// The size and pixel format of a picture, as a filter graph's input is built for them.
public struct PictureFormat: Equatable, Sendable {
    public var width: Int32
    public var height: Int32
    public var format: AVPixelFormat
    public var sampleAspectRatio: Rational

    public init(of frame: Frame) {
        width = frame.width
        height = frame.height
        format = frame.pixelFormat
        sampleAspectRatio = Rational(frame.pointer.pointee.sample_aspect_ratio)
    }

    public static func == (lhs: PictureFormat, rhs: PictureFormat) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.format == rhs.format
            && av_cmp_q(lhs.sampleAspectRatio.avRational, rhs.sampleAspectRatio.avRational) == 0
    }
}
