import CFFmpeg
import VODFFmpeg

/// Demuxes and decodes the input once: video becomes a constant-rate picture sequence and every audio track is
/// encoded once to AAC; both go on through the callbacks.
final class SourceStage {
    private let input: InputFile
    private let videoStream: UnsafeMutablePointer<AVStream>
    private let videoDecoder: Codec
    /// The audio tracks of the video's program, in the source's order.
    let audioTracks: [AudioTrack]
    /// Every audio encoding, track by track: AAC stereo, then AC-3 5.1 for a surround track. Audio packets go
    /// out with their encoding's index in this list.
    let audioEncodings: [AudioEncoderStage]
    /// The text subtitle tracks of the video's program, in the source's order.
    let subtitleTracks: [SubtitleTrack]
    private let corrector: PictureCorrector
    private var converter: FrameRateConverter
    /// The source time shown first: the first picture that decodes. Unknown until then.
    private var zero: Double?
    private let sourceFrameDuration: Double
    private var firstVideoDecodeError: FFmpegError?
    private var decodeErrors = 0

    /// The constant output frame rate.
    var frameRate: FrameRate { converter.frameRate }

    /// The source time at which the title starts: its first picture; 0 before one has decoded.
    var timelineStart: Double { zero ?? 0 }

    init(input: InputFile, options: TranscodeOptions) throws {
        self.input = input
        guard let video = MediaProber.mainVideoStream(of: input),
            video.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        else {
            throw MediaError.unsupported("the file has no video stream; audio-only uploads are not transcoded")
        }
        videoStream = video
        let picture = StreamPicture(stream: video)
        try picture.checkConvertible()
        corrector = try PictureCorrector(stream: picture, timeBase: video.pointee.time_base)
        videoDecoder = try Codec.decoder(for: video)
        let sourceRate = MediaProber.frameRate(of: video)
        converter = FrameRateConverter(frameRate: FrameRate(source: sourceRate, keyframeInterval: options.keyframeInterval))
        sourceFrameDuration = sourceRate.num > 0 && sourceRate.den > 0 ? Double(sourceRate.den) / Double(sourceRate.num) : 1.0 / 30
        let plan = TrackPlan(input: input, video: video)
        audioTracks = plan.audio.compactMap { try? AudioTrack(stream: $0.stream, name: $0.name, bitrate: options.audioBitrate) }
        audioEncodings = audioTracks.flatMap(\.encoders)
        subtitleTracks = plan.subtitles.compactMap { try? SubtitleTrack(stream: $0.stream, name: $0.name) }
        input.discardStreams(except: [video] + audioTracks.map(\.stream) + subtitleTracks.map(\.stream))
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
        try withoutActuallyEscaping(video) { video in
            try withoutActuallyEscaping(sendAudio) { sendAudio in
                let outputs = Outputs(video: { [frameRate] picture, index in
                    try video(picture, frameRate.isKeyframe(index))
                }, audio: sendAudio)
                try decodeAll(packet: packet, frame: frame, outputs: outputs, progress: progress)
                for (index, track) in audioTracks.enumerated() {
                    try decode(nil, with: track.decoder, into: frame) { try self.pushAudio($0, track: index, outputs) }
                }
                // Audio and video end together: the last picture stays up while the audio goes on.
                let audioEnd = audioEncodings.map(\.queuedDuration).max() ?? 0
                try converter.finish(until: audioEnd, emit: outputs.video)
                guard converter.emittedDuration > 0 else { throw noPictureError() }
                for (index, encoding) in audioEncodings.enumerated() {
                    try encoding.finish(duration: converter.emittedDuration) { try sendAudio(index, $0) }
                }
            }
        }
        return converter.emittedDuration
    }

    /// Where decoded media goes: output pictures with their frame index, and audio packets with their encoding.
    private struct Outputs {
        let video: (Frame, Int64) throws -> Void
        let audio: (Int, Packet) throws -> Void
    }

    private func decodeAll(packet: Packet, frame: Frame, outputs: Outputs, progress: (Double) -> Void) throws {
        let total = input.duration ?? 0
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if packet.streamIndex == videoStream.pointee.index {
                try decode(packet, with: videoDecoder, into: frame) { try self.pushVideo($0, outputs) }
                if total > 0 { progress(min(converter.emittedDuration / total, 1)) }
            } else if let track = subtitleTracks.first(where: { $0.stream.pointee.index == packet.streamIndex }) {
                track.add(packet)
            } else if let index = audioTracks.firstIndex(where: { $0.stream.pointee.index == packet.streamIndex }) {
                try decode(packet, with: audioTracks[index].decoder, into: frame) { try self.pushAudio($0, track: index, outputs) }
            }
        }
        try decode(nil, with: videoDecoder, into: frame) { try self.pushVideo($0, outputs) }
        try corrector.finish { try self.show($0, outputs) }
    }

    private func pushVideo(_ frame: Frame, _ outputs: Outputs) throws {
        guard frame.bestEffortTimestamp != vod_nopts_value() else { return }
        try corrector.push(frame) { try self.show($0, outputs) }
    }

    /// Places a corrected picture on the output timeline, which starts at the first picture shown.
    private func show(_ picture: Frame, _ outputs: Outputs) throws {
        let start = Self.seconds(picture.pts, videoStream.pointee.time_base)
        if zero == nil {
            zero = start
            for (index, track) in audioTracks.enumerated() {
                let held = track.held
                track.held = []
                for frame in held { try pushAudio(frame, track: index, outputs) }
            }
        }
        let reported = Self.seconds(picture.pointer.pointee.pkt_duration, videoStream.pointee.time_base)
        let duration = reported > 0 && reported < 10 ? reported : sourceFrameDuration
        try converter.push(try picture.reference(), time: start - (zero ?? start), duration: duration, emit: outputs.video)
    }

    private func pushAudio(_ frame: Frame, track index: Int, _ outputs: Outputs) throws {
        let track = audioTracks[index]
        guard let zero else {
            track.held.append(try frame.reference())
            if track.held.count > Self.heldAudioLimit { track.held.removeFirst() }
            return
        }
        let timestamp = frame.bestEffortTimestamp
        let time = timestamp == vod_nopts_value() ? nil : Self.seconds(timestamp, track.stream.pointee.time_base) - zero
        for encoding in track.encoders {
            let output = audioEncodings.firstIndex { $0 === encoding }!
            try encoding.push(frame, time: time) { try outputs.audio(output, $0) }
        }
    }

    /// Audio frames held while waiting for the first picture: about a minute of AAC. Older ones come before the
    /// first picture, so they would be dropped anyway.
    private static let heldAudioLimit = 3000

    /// Sends one packet (or nil to drain) and passes every decoded frame on. Corrupt packets are skipped, as a
    /// player would, unless most of the input is corrupt.
    private func decode(_ packet: Packet?, with decoder: Codec, into frame: Frame, _ handle: (Frame) throws -> Void) throws {
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
            try handle(frame)
        }
    }

    /// Counts a decoding error, and gives up once the input is mostly damage.
    private func count(_ error: FFmpegError, from decoder: Codec) throws {
        if decoder === videoDecoder, firstVideoDecodeError == nil { firstVideoDecodeError = error }
        decodeErrors += 1
        if decodeErrors > 1000 {
            throw MediaError.invalid("the file is too damaged to decode (\(Self.describe(error, from: decoder)))")
        }
    }

    /// Why no picture came out: the decoder's own complaint, or a file that ends first.
    private func noPictureError() -> MediaError {
        guard let error = firstVideoDecodeError else {
            return MediaError.invalid("the file ends before the first video frame")
        }
        return MediaError.invalid("the video stream could not be decoded (\(Self.describe(error, from: videoDecoder)))")
    }

    /// `codec: message`, with the message FFmpeg logged when there is one: "vp9: Invalid frame marker".
    private static func describe(_ error: FFmpegError, from decoder: Codec) -> String {
        let message = decoder.lastLoggedError ?? error.averror.map(FFmpegError.message) ?? error.description
        return "\(decoder.name): \(message)"
    }

    private static func seconds(_ value: Int64, _ timeBase: AVRational) -> Double {
        Double(value) * Double(timeBase.num) / Double(timeBase.den)
    }
}
