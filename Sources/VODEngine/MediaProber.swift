import CFFmpeg
import VODFFmpeg

/// Reads what a media file holds without decoding it.
public enum MediaProber {
    /// Probes `path`, refusing playlists, scripts, anything that is not a real media container, headers
    /// that claim absurd sizes or durations, and pictures that cannot be shown in SDR (Dolby Vision profile 5).
    public static func probe(path: String) throws -> MediaProbe {
        try InputPolicy.screen(path: path)
        let input = try open(path: path, cancellation: CancellationFlag())
        let probe = describe(input)
        try InputPolicy.checkLimits(of: probe)
        try pictureStream(of: input).map { try StreamPicture(stream: $0).checkConvertible() }
        return probe
    }

    /// Opens `path` with the input policy's protocol and format whitelists.
    static func open(path: String, cancellation: CancellationFlag) throws -> InputFile {
        do {
            return try InputFile(path: path, formats: InputPolicy.allowedFormats, cancellation: cancellation)
        } catch let error as FFmpegError where !error.isCancellation {
            throw MediaError.invalid("the file is not a media file FFmpeg can read (\(error))")
        }
    }

    /// Describes an opened input.
    static func describe(_ input: InputFile) -> MediaProbe {
        let streams = input.streams.map { stream in
            let parameters = stream.pointee.codecpar.pointee
            return StreamInfo(
                index: Int(stream.pointee.index),
                type: av_get_media_type_string(parameters.codec_type).map { String(cString: $0) } ?? "unknown",
                codec: String(cString: avcodec_get_name(parameters.codec_id))
            )
        }
        let video = pictureStream(of: input)
        var probe = MediaProbe(
            container: input.formatName,
            duration: input.duration,
            bitRate: input.bitRate.map { Int($0) },
            video: video.map(videoInfo),
            audio: input.bestStream(AVMEDIA_TYPE_AUDIO, relatedTo: video).map(audioInfo),
            streams: streams
        )
        probe.source = SourceSummary(probe)
        probe.tracks = TrackPlan(input: input, video: video).listings
        return probe
    }

    private static func videoInfo(_ stream: UnsafeMutablePointer<AVStream>) -> VideoStreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        let rotation = clockwiseRotation(stream)
        var aspect = parameters.sample_aspect_ratio
        if aspect.num <= 0 || aspect.den <= 0 { aspect = AVRational(num: 1, den: 1) }
        let rate = frameRate(of: stream)
        var displayWidth = Int((Double(parameters.width) * Double(aspect.num) / Double(aspect.den)).rounded())
        var displayHeight = Int(parameters.height)
        if rotation == 90 || rotation == 270 { swap(&displayWidth, &displayHeight) }
        let pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) }
        let picture = StreamPicture(stream: stream)
        return VideoStreamInfo(
            index: Int(stream.pointee.index),
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            width: Int(parameters.width),
            height: Int(parameters.height),
            rotation: rotation,
            sampleAspectRatio: "\(aspect.num):\(aspect.den)",
            frameRate: rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0,
            frameRateRational: "\(rate.num)/\(rate.den)",
            pixelFormat: pixelFormat ?? "unknown",
            displayWidth: displayWidth,
            displayHeight: displayHeight,
            profile: avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) },
            bitDepth: av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)).map { Int($0.pointee.comp.0.depth) },
            hdr: picture.dynamicRange,
            interlaced: picture.fieldOrder != nil
        )
    }

    private static func audioInfo(_ stream: UnsafeMutablePointer<AVStream>) -> AudioStreamInfo {
        let parameters = stream.pointee.codecpar
        var layout = [CChar](repeating: 0, count: 64)
        let described = av_channel_layout_describe(&parameters!.pointee.ch_layout, &layout, layout.count)
        return AudioStreamInfo(
            index: Int(stream.pointee.index),
            codec: String(cString: avcodec_get_name(parameters!.pointee.codec_id)),
            sampleRate: Int(parameters!.pointee.sample_rate),
            channels: Int(parameters!.pointee.ch_layout.nb_channels),
            channelLayout: described > 0 ? String(cBuffer: layout) : "unknown"
        )
    }

    /// The video that is transcoded, nil for an audio-only file: the main video stream unless it is cover art or
    /// has no picture size.
    static func pictureStream(of input: InputFile) -> UnsafeMutablePointer<AVStream>? {
        mainVideoStream(of: input).flatMap { stream in
            let parameters = stream.pointee.codecpar.pointee
            let isPicture = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 && parameters.width > 0 && parameters.height > 0
            return isPicture ? stream : nil
        }
    }

    /// The main video stream: the largest picture that is not cover art, FFmpeg's choice among equals.
    /// In a transport stream with several programs, this picks the program; its audio goes with it.
    static func mainVideoStream(of input: InputFile) -> UnsafeMutablePointer<AVStream>? {
        let preferred = input.bestStream(AVMEDIA_TYPE_VIDEO)
        let pixels = { (stream: UnsafeMutablePointer<AVStream>) in
            Int(stream.pointee.codecpar.pointee.width) * Int(stream.pointee.codecpar.pointee.height)
        }
        let candidates = input.streams.filter { stream in
            stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 && pixels(stream) > 0
        }
        guard let largest = candidates.map(pixels).max() else { return preferred }
        if let preferred, pixels(preferred) == largest { return preferred }
        return candidates.first { pixels($0) == largest }
    }

    /// The rotation to apply for display, in degrees clockwise, rounded to a multiple of 90.
    static func clockwiseRotation(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        let counterClockwise = vod_stream_rotation(stream)
        let quarterTurns = Int((-counterClockwise / 90).rounded())
        return ((quarterTurns % 4) + 4) % 4 * 90
    }

    /// The stream's average frame rate, falling back to FFmpeg's guess of the real base rate from the
    /// timestamps. A container's declared average can be absurd (a Matroska default duration of 1 ms reads as
    /// 1000 fps); above 120 fps the smaller guess from the timestamps wins.
    static func frameRate(of stream: UnsafeMutablePointer<AVStream>) -> AVRational {
        let average = stream.pointee.avg_frame_rate
        let guess = stream.pointee.r_frame_rate
        let valid = { (rate: AVRational) in rate.num > 0 && rate.den > 0 }
        guard valid(average) else { return guess }
        if av_q2d(average) > 120, valid(guess), av_q2d(guess) < av_q2d(average) { return guess }
        return average
    }
}
