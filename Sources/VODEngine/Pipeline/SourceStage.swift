import VODFFmpeg

/// Demuxes and decodes the input once: video becomes a constant-rate picture sequence and every audio track is
/// encoded once to AAC; both go on through the callbacks. A source without video (a podcast, music) is an
/// audio-only title whose timeline starts at its first audio sample.
///
/// A split title is read in parts (`SourceWindow`): each chunk's pictures from a seek, on the timeline of the
/// whole, and its tracks in one pass without the pictures.
final class SourceStage {
    private let input: InputFile
    /// The output frames a chunk emits; every frame otherwise.
    private let frames: Range<Int64>
    /// Whether this stage reads a split title's tracks without its pictures.
    private let readsTracksOnly: Bool
    /// The last chunk of a split title reads its audio packets, not decoded, to end where the sound ends as
    /// the whole title would (`finishTimeline`).
    private let measuredAudio: [Int32]
    private var measuredAudioEnd = 0.0
    /// The picture transcoded, nil for an audio-only source.
    private let videoStream: MediaStream?
    let videoDecoder: Codec?
    /// The audio tracks of the video's program, in the source's order.
    let audioTracks: [AudioTrack]
    /// Every audio encoding, track by track: AAC stereo, then AC-3 5.1 for a surround track. Audio packets go
    /// out with their encoding's index in this list.
    let audioEncodings: [AudioEncoderStage]
    /// Which tracks of the source become renditions.
    let plan: TrackPlan
    /// The text subtitle tracks of the video's program, in the source's order.
    let subtitleTracks: [SubtitleTrack]
    /// The closed captions the pictures carry, read when the whole title is.
    let closedCaptions: ClosedCaptionTrack?
    /// The closed captions of a chunk's pictures, kept for its manifest: a split title reads them at the stitch.
    let chunkCaptions: ChunkCaptions?
    private let corrector: PictureCorrector?
    private var converter: FrameRateConverter
    /// The source time shown first: the first picture that decodes. Unknown until then.
    var zero: Double?
    private let sourceFrameDuration: Double
    /// The timestamp the next picture of a raw elementary stream gets, in the video's time base: such a stream
    /// has no timestamps of its own (its demuxer guesses some for a few pictures at most), so every picture is
    /// timed from the frame rate, from 0, in the order the decoder shows them. Nil for other inputs.
    private var elementaryClock: Int64?
    private(set) var firstVideoDecodeError: FFmpegError?
    private var decodeErrors = 0
    /// The video packets given to the decoder, and those it refused or failed on (`checkMostlyDecoded`).
    private(set) var videoPacketCount = 0, videoDecodeErrorCount = 0
    private var pictureLimits: PictureLimits

    /// The constant output frame rate; for an audio-only title, the nominal rate its segment schedule counts in.
    var frameRate: FrameRate { converter.frameRate }

    /// Whether the source has a picture to transcode.
    var hasVideo: Bool { videoStream != nil }

    /// The output frame the stage is expected to end before: a chunk's end, or the whole title's from the
    /// container's duration; nil when the container gives none.
    var expectedEndFrame: Int64? {
        if frames.upperBound != .max { return frames.upperBound }
        return input.duration.flatMap { $0 > 0 ? Int64(($0 * frameRate.framesPerSecond).rounded()) : nil }
    }

    /// The source time at which the title starts: its first picture; 0 before one has decoded.
    var timelineStart: Double { zero ?? 0 }

    /// A stage reading `window` of `input`, its pictures corrected for the SDR rungs or, with `keepsHDR`, for the
    /// HDR ones (`PictureCorrection`); a chunk's decoding starts at the keyframe at or before `preroll` seconds before
    /// its first picture.
    init(input: InputFile, options: TranscodeOptions, window: SourceWindow = .whole, keepsHDR: Bool = false,
         preroll: Double = SourceStage.chunkPreroll) throws {
        self.input = input
        let picture = MediaProber.pictureStream(of: input)
        var video = picture
        frames = if case .chunk(let spec) = window { spec.startFrame..<(spec.endFrame ?? .max) } else { 0..<Int64.max }
        switch window {
        case .whole: zero = nil
        case .chunk(let spec): zero = spec.timelineStart
        case .tracks(let start):
            zero = start
            video = nil
        }
        videoStream = video
        readsTracksOnly = picture != nil && video == nil
        let sourceRate = picture.map { MediaProber.frameRate(of: $0, in: input) } ?? Rational(0, 1)
        if let video {
            let picture = StreamPicture(stream: video)
            try picture.checkConvertible()
            corrector = try PictureCorrector(stream: picture, timeBase: video.timeBase, keepsHDR: keepsHDR)
            videoDecoder = try Codec.decoder(for: video)
        } else {
            corrector = nil
            videoDecoder = nil
        }
        let frameRate = FrameRate(source: sourceRate, keyframeInterval: options.keyframeInterval)
        converter = FrameRateConverter(frameRate: frameRate)
        closedCaptions = if case .whole = window, video != nil { try ClosedCaptionTrack(frameRate: frameRate) } else { nil }
        chunkCaptions = if case .chunk = window { ChunkCaptions() } else { nil }
        sourceFrameDuration = sourceRate.isPositive ? sourceRate.inverse.value : 1.0 / 30
        elementaryClock = InputPolicy.elementaryStreamFormats.contains(input.formatName) ? 0 : nil
        pictureLimits = PictureLimits(input: input)
        let plan = TrackPlan(input: input, video: picture)
        self.plan = plan
        let readsTracks = if case .chunk = window { false } else { true }
        let isLastChunk = if case .chunk(let spec) = window { spec.endFrame == nil } else { false }
        let measured = isLastChunk ? plan.audio.map(\.stream) : []
        measuredAudio = measured.map(\.index)
        // An audio-only title of one track gets its AC-3 5.1 as a variant of its own beside the AAC one; one of
        // several tracks is AAC stereo only: GStreamer's hlsdemux stops when it switches by bandwidth between
        // two groups of alternates whose variants are the audio itself.
        let keepsSurround = picture != nil || plan.audio.count == 1
        audioTracks = !readsTracks ? [] : plan.audio.compactMap { track in
            try? AudioTrack(stream: track.stream, name: track.name, bitrate: options.audioBitrate, keepsSurround: keepsSurround,
                            loudnessTarget: options.loudnessTarget)
        }
        audioEncodings = audioTracks.flatMap(\.encoders)
        subtitleTracks = !readsTracks ? [] : plan.subtitles.compactMap { try? SubtitleTrack(stream: $0.stream, name: $0.name) }
        if picture == nil, audioTracks.isEmpty {
            throw MediaError.unsupported("the file has no video stream and no audio track that can be decoded")
        }
        input.discardStreams(except: (video.map { [$0] } ?? []) + audioTracks.map(\.stream) + subtitleTracks.map(\.stream) + measured)
        if case .chunk(let spec) = window {
            converter.startsAtFirstPicture = true
            let start = spec.timelineStart + frameRate.time(ofFrame: spec.startFrame) - preroll
            if spec.startFrame > 0, start > spec.timelineStart { try input.seek(toSeconds: start) }
        }
    }

    /// Decodes pictures until the first is shown and returns its source time: where the title's timeline starts.
    func findTimelineStart() throws -> Double {
        guard let videoStream, let videoDecoder, let corrector else { return 0 }
        let packet = try Packet()
        let frame = try Frame()
        let outputs = Outputs(video: { _, _ in }, audio: { _, _ in })
        while zero == nil, try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == videoStream.index else { continue }
            try decode(packet, with: videoDecoder, into: frame) { try self.pushVideo($0, outputs) }
        }
        if zero == nil {
            try decode(nil, with: videoDecoder, into: frame) { try self.pushVideo($0, outputs) }
            try corrector.finish { try self.show($0, outputs) }
        }
        guard let zero else { throw noPictureError() }
        return zero
    }

    /// Reads the whole input, calling `video` for each output picture (with its keyframe flag) and `audio` for
    /// each audio packet with the index of its encoding in `audioEncodings`, and returns the output duration in
    /// seconds.
    func run(
        video: (Frame, Bool) throws -> Void,
        audio sendAudio: (Int, Packet) throws -> Void,
        progress: (Double) -> Void
    ) throws -> Double {
        let packet = try Packet()
        let frame = try Frame()
        return try withoutActuallyEscaping(video) { video in
            try withoutActuallyEscaping(sendAudio) { sendAudio in
                let outputs = Outputs(video: { [frameRate, frames, closedCaptions, chunkCaptions] picture, index in
                    guard frames.contains(index) else { return }
                    if let captions = picture.closedCaptions {
                        closedCaptions?.add(captions, frame: index)
                        chunkCaptions?.record(captions, frame: index)
                    }
                    try video(picture, frameRate.isKeyframe(index))
                }, audio: sendAudio)
                try decodeAll(packet: packet, frame: frame, outputs: outputs, progress: progress)
                for (index, track) in audioTracks.enumerated() {
                    try decode(nil, with: track.decoder, into: frame) { try self.pushAudio($0, track: index, outputs) }
                    try finishAudio(track: index)
                }
                let duration = try finishTimeline(outputs)
                // A split title's sound is closed at the title's end once its chunks have set it (`TrackPass.finish`).
                if !readsTracksOnly { try closeAudio(at: duration, send: sendAudio) }
                return duration
            }
        }
    }

    /// Where the title ends: audio and video end together, the last picture staying up while the audio goes on;
    /// an audio-only title ends with its longest track.
    private func finishTimeline(_ outputs: Outputs) throws -> Double {
        if frames.upperBound != .max { return frameRate.time(ofFrame: frames.upperBound) }
        let audioEnd = max(audioEncodings.map(\.queuedDuration).max() ?? 0, measuredAudioEnd)
        if readsTracksOnly { return audioEnd }
        guard hasVideo else {
            guard audioEnd > 0 else { throw MediaError.invalid("the file ends before the first audio sample") }
            return audioEnd
        }
        try converter.finish(until: audioEnd, emit: outputs.video)
        guard converter.emittedDuration > 0 else { throw noPictureError() }
        try checkMostlyDecoded()
        closedCaptions?.finish(at: converter.nextIndex)
        return converter.emittedDuration
    }

    /// Where decoded media goes: output pictures with their frame index, and audio packets with their encoding.
    struct Outputs {
        let video: (Frame, Int64) throws -> Void
        let audio: (Int, Packet) throws -> Void
    }

    private func decodeAll(packet: Packet, frame: Frame, outputs: Outputs, progress: (Double) -> Void) throws {
        let total = input.duration ?? 0
        while converter.nextIndex < frames.upperBound, try input.read(into: packet) {
            defer { packet.unreference() }
            if let videoStream, let videoDecoder, packet.streamIndex == videoStream.index {
                try decode(packet, with: videoDecoder, into: frame) { try self.pushVideo($0, outputs) }
                if total > 0 { progress(min(converter.emittedDuration / total, 1)) }
            } else if let track = subtitleTracks.first(where: { $0.stream.index == packet.streamIndex }) {
                track.add(packet)
            } else if measuredAudio.contains(packet.streamIndex) {
                measure(packet)
            } else if let index = audioTracks.firstIndex(where: { $0.stream.index == packet.streamIndex }) {
                try decode(packet, with: audioTracks[index].decoder, into: frame) { try self.pushAudio($0, track: index, outputs) }
                if !hasVideo, total > 0 { progress(min(audioEncodings[0].queuedDuration / total, 1)) }
            }
        }
        guard let videoDecoder, let corrector, converter.nextIndex < frames.upperBound else { return }
        try decode(nil, with: videoDecoder, into: frame) { try self.pushVideo($0, outputs) }
        try corrector.finish { try self.show($0, outputs) }
    }

    /// Moves the measured end of the sound to the end of `packet`, on the title's timeline. A decoder gives a
    /// whole frame of samples for the last packet, also when the container shortens its duration, as the
    /// decoding of the whole title does.
    private func measure(_ packet: Packet) {
        guard let zero, packet.hasPTS, let stream = input.streams.first(where: { $0.index == packet.streamIndex }) else { return }
        let frame = stream.sampleRate > 0 ? Double(stream.frameSize) / Double(stream.sampleRate) : 0
        let duration = max(stream.timeBase.seconds(packet.duration), frame)
        measuredAudioEnd = max(measuredAudioEnd, stream.timeBase.seconds(packet.pts) + duration - zero)
    }

    private func pushVideo(_ frame: Frame, _ outputs: Outputs) throws {
        if let clock = elementaryClock, let videoStream {
            frame.setTimestamp(clock)
            elementaryClock = clock + max(videoStream.timeBase.ticks(sourceFrameDuration), 1)
        }
        guard frame.hasBestEffortTimestamp, let corrector else { return }
        try corrector.push(frame) { try self.show($0, outputs) }
    }

    /// Places a corrected picture on the output timeline, which starts at the first picture shown.
    private func show(_ picture: Frame, _ outputs: Outputs) throws {
        guard let videoStream else { return }
        let start = videoStream.timeBase.seconds(picture.pts)
        if zero == nil {
            zero = start
            for (index, track) in audioTracks.enumerated() {
                let held = track.held
                track.held = []
                for frame in held { try pushAudio(frame, track: index, outputs) }
            }
        }
        let reported = videoStream.timeBase.seconds(picture.packetDuration)
        let duration = reported > 0 && reported < 10 ? reported : sourceFrameDuration
        try converter.push(try picture.reference(), time: start - (zero ?? start), duration: duration, emit: outputs.video)
    }

    /// Sends one packet (or nil to drain) and passes every decoded frame on. Corrupt packets are skipped, as a
    /// player would, unless most of the input is corrupt.
    private func decode(_ packet: Packet?, with decoder: Codec, into frame: Frame, _ handle: (Frame) throws -> Void) throws {
        let isVideo = decoder === videoDecoder
        if isVideo { try pictureLimits.checkRefusals(of: decoder) }
        if isVideo, packet != nil { videoPacketCount += 1 }
        do {
            try decoder.send(packet)
        } catch let error as FFmpegError where !error.isCancellation && !error.isTryAgain {
            try count(error, from: decoder)
            return
        }
        while true {
            do {
                guard try decoder.receive(into: frame) else { break }
            } catch let error as FFmpegError where !error.isCancellation {
                try count(error, from: decoder)
                continue
            }
            defer { frame.unreference() }
            if isVideo { try pictureLimits.check(frame) }
            try handle(frame)
        }
        if isVideo { try pictureLimits.checkRefusals(of: decoder) }
    }

    /// Counts a decoding error, and gives up once the input is mostly damage. A video error may be a picture the
    /// decoder refused for its size, which ends the decode at once: a frame thread notes the refusal only when it
    /// decodes the picture, and its error may come back from the drain, after which no packet is sent.
    private func count(_ error: FFmpegError, from decoder: Codec) throws {
        if decoder === videoDecoder { try pictureLimits.checkRefusals(of: decoder) }
        if decoder === videoDecoder {
            if firstVideoDecodeError == nil { firstVideoDecodeError = error }
            videoDecodeErrorCount += 1
        }
        decodeErrors += 1
        if decodeErrors > 1000 {
            throw MediaError.invalid("the file is too damaged to decode (\(Self.describe(error, from: decoder)))")
        }
    }
}
