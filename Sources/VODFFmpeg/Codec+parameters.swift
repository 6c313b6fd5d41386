import CFFmpeg

/// What an opened codec says of its stream, and how a decoder skips pictures.
extension Codec {
    /// Sets option `name` of the opened codec's own options (libx264's `crf`, say) to `value`; an encoder that
    /// reads its options again before each frame, as libx264 does for `crf`, takes it from the next frame on.
    public func setOption(_ name: String, _ value: String) throws {
        try check(av_opt_set(context.pointee.priv_data, name, value, 0), "set \(name) to \(value)")
    }

    /// An encoder's VBV buffer, in bits. libx264 compares it with its own before each frame and reconfigures
    /// itself when it changed, so a new size holds from the next frame sent.
    public var bufferSize: Int32 {
        get { context.pointee.rc_buffer_size }
        set { context.pointee.rc_buffer_size = newValue }
    }

    /// Makes a decoder drop every frame but keyframes, which then decode alone.
    public func skipNonKeyframes() { context.pointee.skip_frame = AVDISCARD_NONKEY }

    /// The codec's time base: of the packets an encoder gives, of the timestamps a decoder is given.
    public var timeBase: Rational { Rational(context.pointee.time_base) }

    /// Samples per channel in each frame an audio encoder takes; 0 when frames may have any size.
    public var frameSize: Int32 { context.pointee.frame_size }

    /// The codec's global header, such as an AAC encoder's AudioSpecificConfig, when it has one.
    public var extradata: UnsafeBufferPointer<UInt8>? {
        context.pointee.extradata.map { UnsafeBufferPointer(start: $0, count: Int(context.pointee.extradata_size)) }
    }
}
