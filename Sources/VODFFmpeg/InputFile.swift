import CFFmpeg

/// Owns a demuxer (`AVFormatContext`) opened on a local file with a whitelist of protocols and formats.
///
/// Only the `file` protocol (and `concat` of local files) is allowed, so a container cannot make FFmpeg open URLs,
/// and only the demuxers named in `formats` may be probed, so playlists, concat scripts and SDP files are never
/// interpreted. A file opened with one format named is read as that format without a probe: the caller knows
/// what it wrote, and a probe can mistake a short file for another format (a one-picture MPEG-TS segment of 10
/// packets scored as MP2 audio).
public final class InputFile: @unchecked Sendable {
    /// The owned demuxer context.
    let context: UnsafeMutablePointer<AVFormatContext>
    private let cancellation: CancellationFlag
    /// The bounds on reading and decoding this file; its streams' decoders get them.
    public let limits: DecodeLimits
    /// What it was opened with, to open it again (`openedAgain`).
    private let url: String
    private let protocols: String
    private let formats: [String]

    /// Opens `path` and reads stream information within `limits`: the demuxer reads at most their bytes and
    /// media time, and the decoders that stream analysis opens allocate no picture larger than they allow.
    public convenience init(path: String, formats: [String], limits: DecodeLimits, cancellation: CancellationFlag) throws {
        try self.init(url: "file:" + path, protocols: "file", formats: formats, limits: limits, cancellation: cancellation)
    }

    /// Opens the local files `paths` read one after the other as one file (FFmpeg's `concat` protocol), such as
    /// an fMP4 init segment and a media segment, as `init(path:)` opens one.
    public convenience init(concatenating paths: [String], formats: [String], limits: DecodeLimits,
                            cancellation: CancellationFlag) throws {
        guard !paths.contains(where: { $0.contains("|") }) else {
            throw MediaError.invalid("a path to read one after another holds '|', which the concat protocol cannot name")
        }
        try self.init(url: "concat:" + paths.joined(separator: "|"), protocols: "concat,file", formats: formats, limits: limits,
                      cancellation: cancellation)
    }

    private init(url: String, protocols: String, formats: [String], limits: DecodeLimits, cancellation: CancellationFlag) throws {
        guard var context = avformat_alloc_context() else { throw FFmpegError.outOfMemory("open input") }
        self.cancellation = cancellation
        self.limits = limits
        self.url = url
        self.protocols = protocols
        self.formats = formats
        context.pointee.interrupt_callback = cancellation.interruptCallback
        let options = OptionDictionary([
            "protocol_whitelist": protocols,
            "format_whitelist": formats.joined(separator: ","),
            "enable_drefs": "0",
            "use_absolute_path": "0",
        ].merging(limits.demuxerOptions) { $1 })
        var optional: UnsafeMutablePointer<AVFormatContext>? = context
        // On failure avformat_open_input frees the context and sets it to NULL.
        let named = formats.count == 1 ? av_find_input_format(formats[0]) : nil
        try check(avformat_open_input(&optional, url, named, &options.pointer), "open input")
        context = optional!
        self.context = context
        do {
            try findStreamInfo(context)
        } catch {
            var owned: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&owned)
            throw error
        }
    }

    /// Reads stream information with `max_pixels` on every decoder it opens, one option set per stream. A
    /// stream whose header already claims a larger picture is not decoded meanwhile: FFmpeg's decoders size
    /// their tables from the header before they allocate a picture (about 90 MB for 16000×16000 in H.264). Such a
    /// stream keeps the size its header claims, for the caller to refuse.
    private func findStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>) throws {
        let oversized = streams.filter { $0.width * $0.height > limits.maximumPixels }.map { stream in
            (stream: stream.pointer, width: Int32(stream.width), height: Int32(stream.height))
        }
        for (stream, _, _) in oversized { stream.pointee.discard = AVDISCARD_ALL }
        defer {
            for (stream, width, height) in oversized {
                stream.pointee.discard = AVDISCARD_DEFAULT
                stream.pointee.codecpar.pointee.width = width
                stream.pointee.codecpar.pointee.height = height
            }
        }
        let perStream = (0..<Int(context.pointee.nb_streams)).map { _ in OptionDictionary(limits.decoderOptions) }
        var pointers = perStream.map(\.pointer)
        let result = pointers.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) }
        // FFmpeg replaces each dictionary with the options it did not use; each owner frees what it now holds.
        for (dictionary, pointer) in zip(perStream, pointers) { dictionary.pointer = pointer }
        try check(result, "read stream information")
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
        (0..<Int(context.pointee.nb_streams)).compactMap { index in
            context.pointee.streams[index].map { MediaStream($0, of: self) }
        }
    }

    /// The best stream of a type, as FFmpeg chooses it, or nil. With `related`, only streams of the same
    /// program count: the audio of a transport stream's program whose video is transcoded.
    public func bestStream(_ type: MediaType, relatedTo related: MediaStream? = nil) -> MediaStream? {
        let index = av_find_best_stream(context, type.avMediaType, -1, related?.index ?? -1, nil, 0)
        guard index >= 0 else { return nil }
        return context.pointee.streams[Int(index)].map { MediaStream($0, of: self) }
    }

    /// The streams of the program that holds `related`, in the file's order; every stream when the file has no
    /// programs.
    public func streams(inProgramOf related: MediaStream) -> [MediaStream] {
        guard let program = av_find_program_from_stream(context, nil, related.index) else { return streams }
        let members = Set((0..<Int(program.pointee.nb_stream_indexes)).map { Int32(program.pointee.stream_index[$0]) })
        return streams.filter { members.contains($0.index) }
    }

    /// A demuxer of its own on the same file, with the same whitelists and limits: for reading ahead (packets'
    /// timestamps, say) without moving this one.
    public func openedAgain(cancellation: CancellationFlag) throws -> InputFile {
        try InputFile(url: url, protocols: protocols, formats: formats, limits: limits, cancellation: cancellation)
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
