import CFFmpeg

/// The settings of an encoder that `Codec.encoder` is about to open, set in typed groups over its
/// `AVCodecContext`; what is not set keeps libavcodec's default.
public struct EncoderContext {
    /// The context of the encoder, owned by its `Codec`.
    let pointer: UnsafeMutablePointer<AVCodecContext>

    /// The pictures the encoder is given: their size, pixel format and, when given, the shape of their pixels.
    public func setPicture(width: Int32, height: Int32, pixelFormat: AVPixelFormat, sampleAspectRatio: Rational? = nil) {
        pointer.pointee.width = width
        pointer.pointee.height = height
        pointer.pointee.pix_fmt = pixelFormat
        if let sampleAspectRatio { pointer.pointee.sample_aspect_ratio = sampleAspectRatio.avRational }
    }

    /// The sound the encoder is given: its sample rate in Hz, its sample format, and FFmpeg's default channel
    /// layout for `channels` (stereo for 2, 5.1 for 6).
    public func setAudio(sampleRate: Int32, format: AVSampleFormat, channels: Int32) {
        pointer.pointee.sample_rate = sampleRate
        pointer.pointee.sample_fmt = format
        av_channel_layout_default(&pointer.pointee.ch_layout, channels)
    }

    /// The time base of the frames' and packets' timestamps and, for a constant-rate video, its frame rate.
    public func setTiming(timeBase: Rational, frameRate: Rational? = nil) {
        pointer.pointee.time_base = timeBase.avRational
        if let frameRate { pointer.pointee.framerate = frameRate.avRational }
    }

    /// The most and the fewest frames from one keyframe to the next.
    public func setKeyframeInterval(maximum: Int32, minimum: Int32) {
        pointer.pointee.gop_size = maximum
        pointer.pointee.keyint_min = minimum
    }

    /// The average bit rate in bits per second and, when given, the rate control's maximum rate and buffer size
    /// in bits.
    public func setBitRate(_ average: Int64, maximum: Int64? = nil, bufferSize: Int32? = nil) {
        pointer.pointee.bit_rate = average
        if let maximum { pointer.pointee.rc_max_rate = maximum }
        if let bufferSize { pointer.pointee.rc_buffer_size = bufferSize }
    }

    /// Encodes AAC in its Low Complexity profile (AAC-LC).
    public func useAACLowComplexity() { pointer.pointee.profile = FF_PROFILE_AAC_LOW }

    /// Tags the pictures as BT.709 SDR in limited range: primaries, transfer, matrix and range.
    public func tagBT709LimitedRange() {
        pointer.pointee.color_primaries = AVCOL_PRI_BT709
        pointer.pointee.color_trc = AVCOL_TRC_BT709
        pointer.pointee.colorspace = AVCOL_SPC_BT709
        pointer.pointee.color_range = AVCOL_RANGE_MPEG
    }

    /// Tags the pictures as BT.2020 HDR in limited range: BT.2020 primaries, the non-constant-luminance matrix,
    /// and `transfer` (an H.273 code point: 16 for PQ, 18 for HLG).
    public func tagBT2020LimitedRange(transfer: Int32) {
        pointer.pointee.color_primaries = AVCOL_PRI_BT2020
        pointer.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(transfer))
        pointer.pointee.colorspace = AVCOL_SPC_BT2020_NCL
        pointer.pointee.color_range = AVCOL_RANGE_MPEG
    }

    /// Tags the pictures as full range (JPEG levels).
    public func tagFullRange() { pointer.pointee.color_range = AVCOL_RANGE_JPEG }

    /// Encodes at the fixed quantiser `quantiser` rather than to a bit rate; each frame carries it too
    /// (`Frame.setQuantiser`).
    public func useFixedQuantiser(_ quantiser: Int32) {
        pointer.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        pointer.pointee.global_quality = Int32(FF_QP2LAMBDA) * quantiser
    }
}
