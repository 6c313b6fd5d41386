import CFFmpeg

/// Owns one `AVFrame`, freed exactly once when the owner goes away.
public final class Frame: @unchecked Sendable {
    /// The owned frame.
    let pointer: UnsafeMutablePointer<AVFrame>

    public init() throws {
        guard let frame = av_frame_alloc() else { throw FFmpegError.outOfMemory("allocate frame") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// A new frame that shares this frame's buffers (reference counted, no copy).
    public func reference() throws -> Frame {
        let copy = try Frame()
        try check(av_frame_ref(copy.pointer, pointer), "reference frame")
        return copy
    }

    /// Allocates picture buffers of the given size and format.
    public static func video(width: Int32, height: Int32, format: AVPixelFormat) throws -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.width = width
        frame.pointer.pointee.height = height
        frame.pointer.pointee.format = format.rawValue
        try check(av_frame_get_buffer(frame.pointer, 0), "allocate picture")
        return frame
    }

    /// Drops the frame's buffers so it can be filled again.
    public func unreference() { av_frame_unref(pointer) }

    public var width: Int32 { pointer.pointee.width }
    public var height: Int32 { pointer.pointee.height }
    public var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }
    public var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }
    public var sampleCount: Int32 { pointer.pointee.nb_samples }

    /// The duration of the packet the frame was decoded from, in the stream's time base; 0 when unknown.
    public var packetDuration: Int64 { pointer.pointee.pkt_duration }

    /// Which field the decoded frame says comes first, or nil when the frame is progressive.
    public var fieldOrder: FieldOrder? {
        guard pointer.pointee.interlaced_frame != 0 else { return nil }
        return pointer.pointee.top_field_first != 0 ? .topFirst : .bottomFirst
    }

    /// Whether the frame's pixel format is RGB rather than YUV.
    public var isRGB: Bool {
        av_pix_fmt_desc_get(pixelFormat).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 } ?? false
    }

    /// Whether the frame has a best-effort timestamp (its own or the decoder's guess).
    public var hasBestEffortTimestamp: Bool { bestEffortTimestamp != vod_nopts_value() }

    /// The frame's best-effort timestamp, which falls back to the decoder's guess when `pts` is missing.
    public var bestEffortTimestamp: Int64 {
        let value = pointer.pointee.best_effort_timestamp
        return value != vod_nopts_value() ? value : pointer.pointee.pts
    }

    /// Sets both the frame's timestamp and its best-effort timestamp.
    public func setTimestamp(_ value: Int64) {
        pointer.pointee.pts = value
        pointer.pointee.best_effort_timestamp = value
    }
}
