import CFFmpeg

/// Owns a muxer (`AVFormatContext`) writing one output file.
public final class OutputFile: @unchecked Sendable {
    /// The owned muxer context.
    let context: UnsafeMutablePointer<AVFormatContext>
    private var isOpen = false
    private var headerWritten = false

    /// Creates a muxer for `format` (such as `mpegts`) writing to `path`, with one stream per encoder. HEVC in MP4
    /// is tagged `hvc1` (parameter sets in the sample entry), the sample entry Apple's players require, rather
    /// than the muxer's default `hev1`.
    public init(path: String, format: String, encoders: [Codec], cancellation: CancellationFlag) throws {
        var optional: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&optional, nil, format, path), "create muxer")
        guard let context = optional else { throw FFmpegError.outOfMemory("create muxer") }
        self.context = context
        context.pointee.interrupt_callback = cancellation.interruptCallback
        for encoder in encoders {
            guard let stream = avformat_new_stream(context, nil) else { throw FFmpegError.outOfMemory("add stream") }
            try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "add stream")
            stream.pointee.time_base = encoder.context.pointee.time_base
            if format == "mp4", encoder.context.pointee.codec_id == AV_CODEC_ID_HEVC {
                stream.pointee.codecpar.pointee.codec_tag = Self.fourCC("hvc1")
            }
        }
        var callback = context.pointee.interrupt_callback
        try check(avio_open2(&context.pointee.pb, "file:" + path, AVIO_FLAG_WRITE, &callback, nil), "create \(path)")
        isOpen = true
    }

    /// A four-character code as FFmpeg's `MKTAG` packs it: the first character in the lowest byte.
    private static func fourCC(_ code: String) -> UInt32 {
        code.utf8.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    deinit {
        if isOpen { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Tags stream `index` with an ISO 639-2 language code, which an MPEG-TS muxer writes into its PMT.
    public func setLanguage(_ code: String, ofStream index: Int) {
        av_dict_set(&context.pointee.streams[index]!.pointee.metadata, "language", code, 0)
    }

    /// Writes the container header with muxer `options`.
    public func writeHeader(options: [String: String] = [:]) throws {
        let dictionary = OptionDictionary(options)
        try check(avformat_write_header(context, &dictionary.pointer), "write header")
        headerWritten = true
    }

    /// The time base the muxer chose for a stream.
    public func timeBase(ofStream index: Int) -> Rational { Rational(context.pointee.streams[index]!.pointee.time_base) }

    /// Writes one packet as is, without interleaving; the caller keeps packets in decode order.
    public func write(_ packet: Packet) throws {
        try check(av_write_frame(context, packet.pointer), "write packet")
    }

    /// Bytes written so far, including buffered ones.
    public var position: Int64 { avio_tell(context.pointee.pb) }

    /// Closes the current file with everything the muxer holds for it, and goes on in a new one at `path` with
    /// the same muxer: an MPEG-TS muxer keeps each stream's continuity counter running, as a demuxer reading
    /// the files one after the other expects, and writes its PAT and PMT again before the next packet.
    public func continueWriting(into path: String) throws {
        try flush()
        try switchFile(to: path)
        if let muxer = context.pointee.priv_data {
            try check(av_opt_set(muxer, "mpegts_flags", "+resend_headers", 0), "resend tables")
        }
    }

    /// Writes out what the muxer holds: with the MP4 muxer's `frag_custom`, the fragment of the packets written
    /// since the last one (the first time, with `delay_moov`, the `ftyp` and `moov` alone).
    public func flush() throws {
        try check(av_write_frame(context, nil), "flush output")
    }

    /// Closes the current file and sends what the muxer writes from now on into a new one at `path`.
    public func switchFile(to path: String) throws {
        isOpen = false
        try check(avio_closep(&context.pointee.pb), "close output")
        var callback = context.pointee.interrupt_callback
        try check(avio_open2(&context.pointee.pb, "file:" + path, AVIO_FLAG_WRITE, &callback, nil), "create \(path)")
        isOpen = true
    }

    /// Writes `bytes` as they are into the current file, between what the muxer writes (such as an `styp` box).
    public func writeBytes(_ bytes: [UInt8]) {
        avio_write(context.pointee.pb, bytes, Int32(bytes.count))
    }

    /// Gives stream `index` its codec's global header (such as H.264 parameter sets), before `writeHeader`.
    public func setExtradata(_ bytes: [UInt8], ofStream index: Int) throws {
        let parameters = context.pointee.streams[index]!.pointee.codecpar!
        av_freep(&parameters.pointee.extradata)
        guard let buffer = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            throw FFmpegError.outOfMemory("set extradata")
        }
        buffer.copyMemory(from: bytes, byteCount: bytes.count)
        parameters.pointee.extradata = buffer.assumingMemoryBound(to: UInt8.self)
        parameters.pointee.extradata_size = Int32(bytes.count)
    }

    /// Writes the trailer and closes the file; only closes what is left after a failed `continueWriting`.
    public func finish() throws {
        if headerWritten && isOpen { try check(av_write_trailer(context), "write trailer") }
        headerWritten = false
        if isOpen {
            isOpen = false
            try check(avio_closep(&context.pointee.pb), "close output")
        }
    }
}
