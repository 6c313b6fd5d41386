import CFFmpeg

/// Owns a `SwsContext` that scales and converts pictures of one size and format to another.
public final class Scaler: @unchecked Sendable {
    private let context: OpaquePointer
    /// Output pictures kept for reuse; one is reused once nobody else holds a reference to it.
    private var outputs: [Frame] = []
    /// The output width.
    public let width: Int32
    /// The output height.
    public let height: Int32
    /// The output pixel format.
    public let format: AVPixelFormat
    /// The input width this scaler was made for.
    public let sourceWidth: Int32
    /// The input height this scaler was made for.
    public let sourceHeight: Int32
    /// The input pixel format this scaler was made for.
    public let sourceFormat: AVPixelFormat

    public init(
        from sourceWidth: Int32, _ sourceHeight: Int32, _ sourceFormat: AVPixelFormat,
        to width: Int32, _ height: Int32, _ format: AVPixelFormat,
        flags: Int32 = SWS_BICUBIC
    ) throws {
        guard let context = sws_getContext(
            sourceWidth, sourceHeight, sourceFormat, width, height, format, flags, nil, nil, nil
        ) else {
            throw FFmpegError.outOfMemory("create scaler \(sourceWidth)x\(sourceHeight) → \(width)x\(height)")
        }
        self.context = context
        self.width = width
        self.height = height
        self.format = format
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.sourceFormat = sourceFormat
    }

    /// Bicubic scaling with accurate rounding, for stills that are looked at closely.
    public static let accurateBicubic: Int32 = SWS_BICUBIC | SWS_ACCURATE_RND

    /// Enough for a picture being encoded plus those queued for the rungs scaled from it.
    private static let keptOutputs = 4

    deinit { sws_freeContext(context) }

    /// Scales `source` into a frame that keeps the source timestamp.
    ///
    /// The previous call's frame is reused when nothing else holds its buffers any more (an encoder that copied
    /// the picture has released it), so steady-state scaling allocates nothing.
    public func scale(_ source: Frame) throws -> Frame {
        let output: Frame
        if let free = outputs.first(where: { av_frame_is_writable($0.pointer) != 0 }) {
            output = free
        } else {
            output = try Frame.video(width: width, height: height, format: format)
            if outputs.count < Self.keptOutputs { outputs.append(output) }
        }
        try check(sws_scale_frame(context, output.pointer, source.pointer), "scale")
        output.pts = source.pts
        return output
    }
}
