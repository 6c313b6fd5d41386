import CFFmpeg

/// Owns an `AVCodecContext` used either to decode or to encode.
public final class Codec: @unchecked Sendable {
    /// The owned codec context.
    let context: UnsafeMutablePointer<AVCodecContext>
    /// Where FFmpeg's log callback keeps this codec's last error message.
    private let logCapture: UnsafeMutablePointer<VODLogCapture>

    init(codec: UnsafePointer<AVCodec>) throws {
        guard let context = avcodec_alloc_context3(codec) else { throw FFmpegError.outOfMemory("allocate codec") }
        self.context = context
        logCapture = .allocate(capacity: 1)
        vod_log_capture_init(logCapture)
        context.pointee.opaque = UnsafeMutableRawPointer(logCapture)
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
        vod_log_capture_destroy(logCapture)
        logCapture.deallocate()
    }

    /// The codec's short name, such as `h264` or `vp9`.
    public var name: String { String(cString: avcodec_get_name(context.pointee.codec_id)) }

    /// The last error FFmpeg logged about this codec, such as `Invalid frame marker`, once
    /// `FFmpegLog.keepErrorsOnly()` has installed the log callback.
    public var lastLoggedError: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        vod_log_capture_read(logCapture, &buffer, buffer.count)
        let message = String(cBuffer: buffer)
        return message.isEmpty ? nil : message
    }

    /// The size of the last picture this decoder refused to allocate because it has more pixels than its
    /// `max_pixels` allows, nil when it refused none. FFmpeg's decoders skip such a picture, often without an
    /// error, so a caller asks after each packet. Needs `FFmpegLog.keepErrorsOnly()`'s log callback.
    public var refusedPictureSize: (width: Int, height: Int)? {
        var width: UInt32 = 0
        var height: UInt32 = 0
        vod_log_capture_refused_size(logCapture, &width, &height)
        return width > 0 || height > 0 ? (Int(width), Int(height)) : nil
    }

    /// A decoder for a demuxed stream, opened and ready for packets, that allocates no picture larger than its
    /// file's `DecodeLimits` allow.
    public static func decoder(for stream: MediaStream, threads: Int32 = 0) throws -> Codec {
        let parameters = stream.pointer.pointee.codecpar!
        guard let found = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw MediaError.unsupported("no decoder for codec \(name)")
        }
        let codec = try Codec(codec: found)
        try check(avcodec_parameters_to_context(codec.context, parameters), "configure decoder")
        codec.context.pointee.pkt_timebase = stream.pointer.pointee.time_base
        codec.context.pointee.thread_count = threads
        codec.context.pointee.max_pixels = Int64(stream.limits.maximumPixels)
        try check(avcodec_open2(codec.context, found, nil), "open decoder")
        return codec
    }

    /// A decoder for the packets this opened encoder gives, opened and ready for them: to see the pictures a
    /// viewer would. It allocates no picture larger than the encoder's.
    public func decoderForOutput(threads: Int32 = 0) throws -> Codec {
        guard let found = avcodec_find_decoder(context.pointee.codec_id) else {
            throw MediaError.unsupported("no decoder for codec \(name)")
        }
        let decoder = try Codec(codec: found)
        let parameters = avcodec_parameters_alloc()
        defer { var owned = parameters; avcodec_parameters_free(&owned) }
        try check(avcodec_parameters_from_context(parameters, context), "describe encoder")
        try check(avcodec_parameters_to_context(decoder.context, parameters), "configure decoder")
        decoder.context.pointee.pkt_timebase = context.pointee.time_base
        decoder.context.pointee.thread_count = threads
        // FFmpeg checks the width rounded up to its row alignment (at most 64 pixels); the height is rounded too.
        let aligned = { (side: Int32) in (Int64(max(side, 1)) + 63) / 64 * 64 }
        decoder.context.pointee.max_pixels = aligned(context.pointee.width) * aligned(context.pointee.height)
        try check(avcodec_open2(decoder.context, found, nil), "open decoder")
        return decoder
    }

    /// An encoder by name, configured by `configure` and then opened with `options`.
    public static func encoder(
        named name: String,
        options: [String: String] = [:],
        configure: (EncoderContext) -> Void
    ) throws -> Codec {
        guard let found = avcodec_find_encoder_by_name(name) else {
            throw MediaError.unsupported("encoder \(name) is not available")
        }
        let codec = try Codec(codec: found)
        configure(EncoderContext(pointer: codec.context))
        let dictionary = OptionDictionary(options)
        try check(avcodec_open2(codec.context, found, &dictionary.pointer), "open encoder \(name)")
        return codec
    }

    /// Sends a packet to a decoder; nil starts draining.
    public func send(_ packet: Packet?) throws {
        let result = avcodec_send_packet(context, packet?.pointer)
        if result == vod_averror_eof() { return }
        try check(result, "decode")
    }

    /// Receives a decoded frame, or returns false when the decoder needs more input or is drained.
    public func receive(into frame: Frame) throws -> Bool {
        let result = avcodec_receive_frame(context, frame.pointer)
        if result == vod_averror_eagain() || result == vod_averror_eof() { return false }
        try check(result, "decode")
        return true
    }

    /// Decodes one packet of a text subtitle track into its events, in ASS dialogue form
    /// (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`), each with its display times in
    /// seconds relative to the packet's timestamp; the end is nil when the event says nothing.
    public func decodeSubtitle(_ packet: Packet) throws -> [(text: String, start: Double, end: Double?)] {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        try check(avcodec_decode_subtitle2(context, &subtitle, &got, packet.pointer), "decode subtitle")
        guard got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        let start = Double(subtitle.start_display_time) / 1000
        let end = subtitle.end_display_time > subtitle.start_display_time && subtitle.end_display_time != UInt32.max
            ? Double(subtitle.end_display_time) / 1000 : nil
        return (0..<Int(subtitle.num_rects)).compactMap { index in
            guard let rect = subtitle.rects[index], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else {
                return nil
            }
            return (String(cString: ass), start, end)
        }
    }

    /// Sends a frame to an encoder; nil starts draining.
    public func send(_ frame: Frame?) throws {
        let result = avcodec_send_frame(context, frame?.pointer)
        if result == vod_averror_eof() { return }
        try check(result, "encode")
    }

    /// Receives an encoded packet, or returns false when the encoder needs more input or is drained.
    public func receive(into packet: Packet) throws -> Bool {
        let result = avcodec_receive_packet(context, packet.pointer)
        if result == vod_averror_eagain() || result == vod_averror_eof() { return false }
        try check(result, "encode")
        return true
    }
}
