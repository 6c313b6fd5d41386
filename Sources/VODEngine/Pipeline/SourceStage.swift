import CFFmpeg
import VODFFmpeg

/// Demuxes and decodes the input once: video becomes a constant-rate picture sequence and audio is encoded
/// once to AAC; both go to every rung through the callbacks.
final class SourceStage {
    private let input: InputFile
    private let videoStream: UnsafeMutablePointer<AVStream>
    /// The opened video decoder.
    let videoDecoder: Codec
    private let audioStream: UnsafeMutablePointer<AVStream>?
    private let audioDecoder: Codec?
    /// The AAC encoder stage, when the title has audio.
    let audio: AudioEncoderStage?
    private var converter: FrameRateConverter
    private let zero: Double
    private let sourceFrameDuration: Double
    private var decodeErrors = 0

    /// The constant output frame rate.
    var frameRate: FrameRate { converter.frameRate }

    init(input: InputFile, options: TranscodeOptions) throws {
        self.input = input
        guard let video = input.bestStream(AVMEDIA_TYPE_VIDEO),
            video.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        else {
            throw MediaError.unsupported("the file has no video stream; audio-only uploads are not transcoded")
        }
        videoStream = video
        videoDecoder = try Codec.decoder(for: video)
        let sourceRate = MediaProber.frameRate(of: video)
        converter = FrameRateConverter(frameRate: FrameRate(source: sourceRate, keyframeInterval: options.keyframeInterval))
        sourceFrameDuration = sourceRate.num > 0 && sourceRate.den > 0 ? Double(sourceRate.den) / Double(sourceRate.num) : 1.0 / 30
        zero = video.pointee.start_time != vod_nopts_value() ? Self.seconds(video.pointee.start_time, video.pointee.time_base) : 0
        if let stream = input.bestStream(AVMEDIA_TYPE_AUDIO), let decoder = try? Codec.decoder(for: stream) {
            audioStream = stream
            audioDecoder = decoder
            audio = try AudioEncoderStage(decoder: decoder, bitrate: options.audioBitrate)
        } else {
            audioStream = nil
            audioDecoder = nil
            audio = nil
        }
    }

    /// Reads the whole input, calling `video` for each output picture (with its keyframe flag) and `audio` for
    /// each AAC packet, and returns the output duration in seconds.
    func run(
        video: (Frame, Bool) throws -> Void,
        audio sendAudio: (Packet) throws -> Void,
        progress: (Double) -> Void
    ) throws -> Double {
        let packet = try Packet()
        let frame = try Frame()
        try withoutActuallyEscaping(video) { video in
            try decodeAll(packet: packet, frame: frame, emitVideo: { [frameRate] picture, index in
                try video(picture, frameRate.isKeyframe(index))
            }, sendAudio: sendAudio, progress: progress)
        }
        let duration = converter.emittedDuration
        guard duration > 0 else { throw MediaError.invalid("no video frames could be decoded") }
        if let audioDecoder, let audio {
            try decode(nil, with: audioDecoder, into: frame) { try self.pushAudio($0, emit: sendAudio) }
            try audio.finish(duration: duration, emit: sendAudio)
        }
        return duration
    }

    private func decodeAll(
        packet: Packet, frame: Frame, emitVideo: (Frame, Int64) throws -> Void,
        sendAudio: (Packet) throws -> Void, progress: (Double) -> Void
    ) throws {
        let total = input.duration ?? 0
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if packet.streamIndex == videoStream.pointee.index {
                try decode(packet, with: videoDecoder, into: frame) { try self.pushVideo($0, emit: emitVideo) }
                if total > 0 { progress(min(converter.emittedDuration / total, 1)) }
            } else if let audioDecoder, let stream = audioStream, packet.streamIndex == stream.pointee.index {
                try decode(packet, with: audioDecoder, into: frame) { try self.pushAudio($0, emit: sendAudio) }
            }
        }
        try decode(nil, with: videoDecoder, into: frame) { try self.pushVideo($0, emit: emitVideo) }
        try converter.finish(emit: emitVideo)
    }

    private func pushVideo(_ frame: Frame, emit: (Frame, Int64) throws -> Void) throws {
        let timestamp = frame.bestEffortTimestamp
        guard timestamp != vod_nopts_value() else { return }
        let time = Self.seconds(timestamp, videoStream.pointee.time_base) - zero
        let reported = Self.seconds(frame.pointer.pointee.pkt_duration, videoStream.pointee.time_base)
        let duration = reported > 0 && reported < 10 ? reported : sourceFrameDuration
        try converter.push(try frame.reference(), time: time, duration: duration, emit: emit)
    }

    private func pushAudio(_ frame: Frame, emit: (Packet) throws -> Void) throws {
        guard let audio, let stream = audioStream else { return }
        let timestamp = frame.bestEffortTimestamp
        let time = timestamp == vod_nopts_value() ? nil : Self.seconds(timestamp, stream.pointee.time_base) - zero
        try audio.push(frame, time: time, emit: emit)
    }

    /// Sends one packet (or nil to drain) and passes every decoded frame on. Corrupt packets are skipped, as a
    /// player would, unless most of the input is corrupt.
    private func decode(_ packet: Packet?, with decoder: Codec, into frame: Frame, _ handle: (Frame) throws -> Void) throws {
        do {
            try decoder.send(packet)
        } catch let error as FFmpegError where !error.isCancellation && !error.isTryAgain {
            decodeErrors += 1
            if decodeErrors > 1000 { throw MediaError.invalid("the file is too damaged to decode (\(error))") }
            return
        }
        while true {
            do {
                guard try decoder.receive(into: frame) else { break }
            } catch let error as FFmpegError where !error.isCancellation {
                decodeErrors += 1
                if decodeErrors > 1000 { throw MediaError.invalid("the file is too damaged to decode (\(error))") }
                continue
            }
            defer { frame.unreference() }
            try handle(frame)
        }
    }

    private static func seconds(_ value: Int64, _ timeBase: AVRational) -> Double {
        Double(value) * Double(timeBase.num) / Double(timeBase.den)
    }
}
