import CFFmpeg

/// Owns a `SwrContext` converting audio to one sample format, rate and channel layout.
public final class Resampler: @unchecked Sendable {
    private let context: OpaquePointer
    /// The output sample rate.
    public let sampleRate: Int32
    /// The output sample format.
    public let format: AVSampleFormat
    /// The output channel count.
    public let channels: Int32

    /// A resampler from the decoder's format to `sampleRate` with `channels` and `format`.
    public init(from decoder: Codec, sampleRate: Int32, channels: Int32, format: AVSampleFormat) throws {
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, channels)
        var inputLayout = AVChannelLayout()
        if decoder.context.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || decoder.context.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&inputLayout, max(decoder.context.pointee.ch_layout.nb_channels, 1))
        } else {
            try check(av_channel_layout_copy(&inputLayout, &decoder.context.pointee.ch_layout), "copy channel layout")
        }
        defer {
            av_channel_layout_uninit(&inputLayout)
            av_channel_layout_uninit(&outputLayout)
        }
        var context: OpaquePointer? = nil
        try check(
            swr_alloc_set_opts2(
                &context, &outputLayout, format, sampleRate,
                &inputLayout, decoder.context.pointee.sample_fmt, decoder.context.pointee.sample_rate, 0, nil
            ),
            "configure resampler"
        )
        guard let context else { throw FFmpegError.outOfMemory("configure resampler") }
        self.context = context
        self.sampleRate = sampleRate
        self.format = format
        self.channels = channels
        try check(swr_init(context), "open resampler")
    }

    deinit {
        var owned: OpaquePointer? = context
        swr_free(&owned)
    }

    /// Converts `input` (or drains buffered samples when nil) into a new frame, which may hold no samples.
    public func convert(_ input: Frame?) throws -> Frame {
        let output = try Frame()
        output.pointer.pointee.sample_rate = sampleRate
        output.pointer.pointee.format = format.rawValue
        av_channel_layout_default(&output.pointer.pointee.ch_layout, channels)
        let pending = swr_get_delay(context, Int64(sampleRate))
        let incoming = Int64(input?.sampleCount ?? 0) * Int64(sampleRate)
            / Int64(max(input?.pointer.pointee.sample_rate ?? sampleRate, 1))
        output.pointer.pointee.nb_samples = Int32(pending + incoming + 32)
        try check(av_frame_get_buffer(output.pointer, 0), "allocate audio")
        let converted = swr_convert(
            context,
            output.pointer.pointee.extended_data, output.pointer.pointee.nb_samples,
            input.map { UnsafeMutablePointer(mutating: $0.pointer.pointee.extended_data).withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int($0.pointer.pointee.ch_layout.nb_channels)) { $0 } },
            input?.sampleCount ?? 0
        )
        try check(converted, "resample")
        output.pointer.pointee.nb_samples = converted
        return output
    }
}
