import VODFFmpeg

/// Reads what a media file holds without decoding it.
public enum MediaProber {
    /// Probes `path`, refusing playlists, scripts, anything that is not a real media container, headers
    /// that claim absurd sizes or durations, and pictures that cannot be shown in SDR (Dolby Vision profile 5).
    /// A video without a duration is read to its end, without decoding, to count its pictures.
    public static func probe(path: String) throws -> MediaProbe {
        FFmpegLog.keepErrorsOnly()
        try InputPolicy.screen(path: path)
        let input = try open(path: path, cancellation: CancellationFlag())
        let probe = describe(input)
        try InputPolicy.checkLimits(of: probe)
        try pictureStream(of: input).map { try StreamPicture(stream: $0).checkConvertible() }
        try checkUntimedLength(of: input)
        return probe
    }

    /// Opens `path` with the input policy's protocol and format whitelists.
    static func open(path: String, cancellation: CancellationFlag) throws -> InputFile {
        do {
            return try InputFile(
                path: path, formats: InputPolicy.allowedFormats, limits: InputPolicy.decodeLimits, cancellation: cancellation)
        } catch let error as FFmpegError where !error.isCancellation {
            throw MediaError.invalid("the file is not a media file FFmpeg can read (\(error))")
        }
    }

    /// Describes an opened input.
    static func describe(_ input: InputFile) -> MediaProbe {
        let streams = input.streams.map { stream in
            StreamInfo(index: Int(stream.index), type: stream.mediaTypeName ?? "unknown", codec: stream.codecName)
        }
        let video = pictureStream(of: input)
        var probe = MediaProbe(
            container: input.formatName,
            duration: input.duration,
            bitRate: input.bitRate.map { Int($0) },
            video: video.map { videoInfo($0, in: input) },
            audio: input.bestStream(.audio, relatedTo: video).map(audioInfo),
            streams: streams
        )
        probe.source = SourceSummary(probe)
        probe.tracks = TrackPlan(input: input, video: video).listings
        probe.chapters = ChapterList.listed(input.chapters)
        return probe
    }

    private static func videoInfo(_ stream: MediaStream, in input: InputFile) -> VideoStreamInfo {
        let rotation = clockwiseRotation(stream)
        var aspect = stream.sampleAspectRatio
        if !aspect.isPositive { aspect = Rational(1, 1) }
        let rate = frameRate(of: stream, in: input)
        let picture = StreamPicture(stream: stream)
        // The coded picture's display aspect ratio is that of the lines left once the blanking is cut.
        let shown = Double(stream.height - picture.blankingLines) / Double(stream.height)
        var displayWidth = Int((Double(stream.width) * Double(aspect.numerator) / Double(aspect.denominator) * shown).rounded())
        var displayHeight = stream.height - picture.blankingLines
        if rotation == 90 || rotation == 270 { swap(&displayWidth, &displayHeight) }
        return VideoStreamInfo(
            index: Int(stream.index),
            codec: stream.codecName,
            width: stream.width,
            height: stream.height,
            rotation: rotation,
            sampleAspectRatio: "\(aspect.numerator):\(aspect.denominator)",
            frameRate: rate.isPositive ? rate.value : 0,
            frameRateRational: "\(rate.numerator)/\(rate.denominator)",
            pixelFormat: stream.pixelFormatName ?? "unknown",
            displayWidth: displayWidth,
            displayHeight: displayHeight,
            profile: stream.profileName,
            bitDepth: stream.bitDepth,
            hdr: picture.dynamicRange,
            interlaced: picture.fieldOrder != nil
        )
    }

    private static func audioInfo(_ stream: MediaStream) -> AudioStreamInfo {
        AudioStreamInfo(
            index: Int(stream.index),
            codec: stream.codecName,
            sampleRate: stream.sampleRate,
            channels: stream.channelCount,
            channelLayout: stream.channelLayoutName ?? "unknown"
        )
    }

    /// The video that is transcoded, nil for an audio-only file: the main video stream unless it is cover art or
    /// has no picture size.
    static func pictureStream(of input: InputFile) -> MediaStream? {
        mainVideoStream(of: input).flatMap { stream in
            !stream.isAttachedPicture && stream.width > 0 && stream.height > 0 ? stream : nil
        }
    }

    /// The main video stream: the largest picture that is not cover art, FFmpeg's choice among equals.
    /// In a transport stream with several programs, this picks the program; its audio goes with it.
    static func mainVideoStream(of input: InputFile) -> MediaStream? {
        let preferred = input.bestStream(.video)
        let pixels = { (stream: MediaStream) in stream.width * stream.height }
        let candidates = input.streams.filter { stream in
            stream.mediaType == .video && !stream.isAttachedPicture && pixels(stream) > 0
        }
        guard let largest = candidates.map(pixels).max() else { return preferred }
        if let preferred, pixels(preferred) == largest { return preferred }
        return candidates.first { pixels($0) == largest }
    }

    /// The rotation to apply for display, in degrees clockwise, rounded to a multiple of 90.
    static func clockwiseRotation(_ stream: MediaStream) -> Int {
        let quarterTurns = Int((-stream.counterClockwiseRotation / 90).rounded())
        return ((quarterTurns % 4) + 4) % 4 * 90
    }

    /// The stream's average frame rate, falling back to FFmpeg's guess of the real base rate from the
    /// timestamps when the container gives none. A container's declared average can be absurd (a Matroska
    /// default duration of 1 ms reads as 1000 fps); above `plausibleRate` the rate of the first pictures'
    /// timestamps wins (`measuredFrameRate`), else the guess when it is smaller. The guess alone can be twice
    /// the real rate: a 30 fps Matroska file whose timestamps alternate 33 and 34 ms reads as 60 fps, and every
    /// picture was encoded twice.
    static func frameRate(of stream: MediaStream, in input: InputFile) -> Rational {
        let average = stream.averageFrameRate
        let guess = stream.baseFrameRate
        guard average.isPositive else { return guess }
        guard average.value > plausibleRate else { return average }
        if let measured = measuredFrameRate(of: stream, in: input) { return measured }
        return guess.isPositive && guess.value < average.value ? guess : average
    }

    /// Above this many pictures a second, a declared average is taken for a container's artefact.
    static let plausibleRate = 120.0
    /// How many pictures' timestamps `measuredFrameRate` reads: 2 s at 30 fps, enough to tell 29.97 from 30 fps
    /// in timestamps rounded to the millisecond.
    static let measuredPictures = 60
    /// The rates cameras and encoders write, which a measurement within `commonRateTolerance` of one is taken for.
    static let commonRates = [Rational(24000, 1001), Rational(24, 1), Rational(25, 1), Rational(30000, 1001), Rational(30, 1),
                              Rational(48, 1), Rational(50, 1), Rational(60000, 1001), Rational(60, 1)]
    static let commonRateTolerance = 0.005

    /// The rate of `stream`'s first pictures from their presentation times, read by a demuxer of its own without
    /// decoding (up to `measuredPictures`, sorted, their span over the number of intervals), taken for the
    /// nearest of `commonRates` within `commonRateTolerance`; nil when fewer than 8 pictures have times or their
    /// rate is no more plausible than the declared one (above `plausibleRate`).
    static func measuredFrameRate(of stream: MediaStream, in input: InputFile) -> Rational? {
        guard let file = try? input.openedAgain(cancellation: CancellationFlag()),
              let video = file.streams.first(where: { $0.index == stream.index }), let packet = try? Packet() else { return nil }
        file.discardStreams(except: [video])
        var times: [Int64] = []
        while times.count < measuredPictures, (try? file.read(into: packet)) == true {
            if packet.streamIndex == video.index, packet.hasPTS { times.append(packet.pts) }
            packet.unreference()
        }
        times.sort()
        guard times.count >= 8, let first = times.first, let last = times.last, last > first else { return nil }
        let rate = Double(times.count - 1) / video.timeBase.seconds(last - first)
        guard rate <= plausibleRate else { return nil }
        let nearest = commonRates.min { abs($0.value - rate) < abs($1.value - rate) }
        if let nearest, abs(nearest.value - rate) <= commonRateTolerance * rate { return nearest }
        return Rational(Int32((rate * 1000).rounded()), 1000).reduced()
    }
}
