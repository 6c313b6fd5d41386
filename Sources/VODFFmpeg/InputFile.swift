import CFFmpeg

/// Owns a demuxer (`AVFormatContext`) opened on a local file with a whitelist of protocols and formats.
///
/// Only the `file` protocol is allowed, so a container cannot make FFmpeg open URLs, and only the demuxers named
/// in `formats` may be probed, so playlists, concat scripts and SDP files are never interpreted.
public final class InputFile: @unchecked Sendable {
    /// The owned demuxer context.
    let context: UnsafeMutablePointer<AVFormatContext>
    private let cancellation: CancellationFlag

    /// Opens `path` and reads stream information.
    public init(path: String, formats: [String], cancellation: CancellationFlag) throws {
        guard var context = avformat_alloc_context() else { throw FFmpegError.outOfMemory("open input") }
        self.cancellation = cancellation
        context.pointee.interrupt_callback = cancellation.interruptCallback
        let options = OptionDictionary([
            "protocol_whitelist": "file",
            "format_whitelist": formats.joined(separator: ","),
            "enable_drefs": "0",
            "use_absolute_path": "0",
        ])
        var optional: UnsafeMutablePointer<AVFormatContext>? = context
        // On failure avformat_open_input frees the context and sets it to NULL.
        try check(avformat_open_input(&optional, "file:" + path, nil, &options.pointer), "open input")
        context = optional!
        self.context = context
        do {
            try check(avformat_find_stream_info(context, nil), "read stream information")
        } catch {
            var owned: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&owned)
            throw error
        }
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&owned)
    }

    /// The demuxer's short name, such as `mov,mp4,m4a,3gp,3g2,mj2`.
    public var formatName: String { String(cString: context.pointee.iformat.pointee.name) }

    /// The container duration in seconds, when known.
    public var duration: Double? {
        let value = context.pointee.duration
        guard value != vod_nopts_value(), value > 0 else { return nil }
        return Double(value) / Double(vod_time_base())
    }

    /// The container's start time in seconds, when known.
    public var startTime: Double? {
        let value = context.pointee.start_time
        guard value != vod_nopts_value() else { return nil }
        return Double(value) / Double(vod_time_base())
    }

    /// The container's overall bit rate in bits per second, when known.
    public var bitRate: Int64? { context.pointee.bit_rate > 0 ? context.pointee.bit_rate : nil }

    /// The demuxed streams.
    public var streams: [MediaStream] {
        (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0].map(MediaStream.init) }
    }

    /// The best stream of a type, as FFmpeg chooses it, or nil. With `related`, only streams of the same
    /// program count: the audio of a transport stream's program whose video is transcoded.
    public func bestStream(_ type: MediaType, relatedTo related: MediaStream? = nil) -> MediaStream? {
        let index = av_find_best_stream(context, type.avMediaType, -1, related?.index ?? -1, nil, 0)
        guard index >= 0 else { return nil }
        return context.pointee.streams[Int(index)].map(MediaStream.init)
    }

    /// The streams of the program that holds `related`, in the file's order; every stream when the file has no
    /// programs.
    public func streams(inProgramOf related: MediaStream) -> [MediaStream] {
        guard let program = av_find_program_from_stream(context, nil, related.index) else { return streams }
        let members = Set((0..<Int(program.pointee.nb_stream_indexes)).map { Int32(program.pointee.stream_index[$0]) })
        return streams.filter { members.contains($0.index) }
    }

    /// Tells the demuxer to drop the packets of every stream but `kept`, so nothing else is read or parsed.
    public func discardStreams(except kept: [MediaStream]) {
        for stream in streams where !kept.contains(stream) { stream.pointer.pointee.discard = AVDISCARD_ALL }
    }

    /// Moves the demuxer to the last keyframe at or before `seconds` of the file's timeline, so that decoding
    /// from there shows every picture from `seconds` on.
    public func seek(toSeconds seconds: Double) throws {
        let timestamp = Int64((seconds * Double(vod_time_base())).rounded(.down))
        try check(avformat_seek_file(context, -1, Int64.min, timestamp, timestamp, 0), "seek input")
    }

    /// Reads the next packet, or returns false at the end of the file.
    public func read(into packet: Packet) throws -> Bool {
        try cancellation.check("read input")
        let result = av_read_frame(context, packet.pointer)
        if result == vod_averror_eof() { return false }
        try check(result, "read input")
        return true
    }
}
