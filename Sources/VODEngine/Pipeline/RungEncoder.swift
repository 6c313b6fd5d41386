import Foundation
import VODFFmpeg

/// What the source stage sends each rung: constant-rate pictures and the shared AAC packets.
enum RungInput: @unchecked Sendable {
    /// A decoded picture whose `pts` is its output frame index.
    case video(Frame, isKeyframe: Bool)
    /// An encoded audio packet, this rung's own reference.
    case audio(Packet)
}

/// Scales, rotates and encodes one rung with libx264 and hands the packets to its segmenter.
///
/// Made on the source thread, then handed to a thread of its own that is the only one to use it.
final class RungEncoder: @unchecked Sendable {
    let rung: PlannedRung
    private let rotation: Int
    private let frameRate: FrameRate
    private var encoder: Codec
    /// While the first segment is encoded with the start preset: the frame that starts the second segment, where
    /// the encoder of the rung's own preset takes over, and how to make it.
    private var fastStart: (switchFrame: Int64, makeEncoder: () throws -> Codec)?
    private let segmenter: HLSSegmenter
    private let audioCodec: String?
    private var scaler: Scaler?
    private let packet: Packet
    /// Told the seconds of pictures given to the encoder so far, after each one.
    private let encoded: (Double) -> Void

    init(rung: PlannedRung, threads: Int, rotation: Int, frameRate: FrameRate, audio: AudioEncoderStage?,
         options: TranscodeOptions, directory: URL, publisher: LivePublisher?, cancellation: CancellationFlag,
         firstSegment: Int = 0, audioLeadIn: [Packet] = [], encoded: @escaping (Double) -> Void = { _ in }) throws {
        self.rung = rung
        self.encoded = encoded
        self.rotation = rotation
        self.frameRate = frameRate
        let makeEncoder = { (preset: String) in
            try Self.makeEncoder(rung: rung, preset: preset, threads: threads, frameRate: frameRate)
        }
        if firstSegment == 0 && options.startsFast(rung) {
            var schedule = SegmentSchedule(frameRate: frameRate, durations: options.segmentDurations)
            _ = schedule.nextBoundary()
            encoder = try makeEncoder(options.firstSegmentPreset)
            fastStart = (schedule.boundaryFrame, { try makeEncoder(options.preset) })
        } else {
            encoder = try makeEncoder(options.preset)
        }
        audioCodec = audio?.codecString
        segmenter = HLSSegmenter(directory: directory, video: encoder, audio: audio?.encoder, language: audio?.language,
                                 durations: options.segmentDurations, frameRate: frameRate,
                                 cancellation: cancellation, firstSegment: firstSegment, keepsFirstSegmentAudio: fastStart != nil)
        audioLeadIn.forEach(segmenter.add(audio:))
        packet = try Packet()
        if let publisher {
            let audioCodec = audioCodec
            segmenter.onSegment = { segment, iFrames, videoCodec in
                let template = Rendition(rung: rung, segments: [], iFrames: [], videoCodec: videoCodec, audioCodec: audioCodec,
                                         frameRate: frameRate.framesPerSecond)
                try publisher.closed(segment, iFrames: iFrames, of: template)
            }
        }
    }

    /// The audio packets muxed into the first segment, when it was encoded fast: what its replacement carries.
    var firstSegmentAudio: [Packet] { segmenter.firstSegmentAudio }

    /// Encodes everything from `queue` until it closes, then flushes and returns the finished rendition.
    ///
    /// `followers` are the queues of smaller rungs scaled from this rung's picture: they get that picture,
    /// before rotation, and every audio packet, in the order this rung gets them.
    func run(queue: BoundedQueue<RungInput>, followers: [BoundedQueue<RungInput>] = []) throws -> Rendition {
        var frames: Int64 = 0
        while let input = try queue.pop() {
            switch input {
            case .audio(let packet):
                for follower in followers { try follower.push(.audio(try packet.reference())) }
                segmenter.add(audio: packet)
            case .video(let frame, let isKeyframe):
                if let fastStart, frame.pts >= fastStart.switchFrame { try switchEncoder(to: try fastStart.makeEncoder()) }
                let scaled = try scale(frame)
                for follower in followers { try follower.push(.video(try scaled.reference(), isKeyframe: isKeyframe)) }
                let picture = rotation == 0 ? scaled : try PictureRotator.rotate(scaled, clockwise: rotation)
                picture.pts = frame.pts
                picture.forcesKeyframe = isKeyframe
                try encoder.send(picture)
                try drain()
                frames = frame.pts + 1
                encoded(frameRate.time(ofFrame: frames))
            }
        }
        followers.forEach { $0.close() }
        try encoder.send(nil as Frame?)
        try drain()
        let end = frameRate.time(ofFrame: frames)
        let (segments, iFrames) = try segmenter.finish(end: end)
        guard let videoCodec = segmenter.videoCodec, !segments.isEmpty else {
            throw MediaError.invalid("no video frames could be decoded")
        }
        return Rendition(rung: rung, segments: segments, iFrames: iFrames, videoCodec: videoCodec,
                         audioCodec: audioCodec, frameRate: frameRate.framesPerSecond)
    }

    /// Flushes the encoder of the first segment into it, then hands the rest of the rung to `next`: both close
    /// their GOPs and delay decode times alike, so the picture and its timestamps run on across the cut.
    private func switchEncoder(to next: Codec) throws {
        try encoder.send(nil as Frame?)
        try drain()
        encoder = next
        segmenter.switchVideo(to: next)
        fastStart = nil
    }

    /// A libx264 encoder for `rung` with the rung's bitrate, the title's keyframe grid and BT.709 SDR tags.
    private static func makeEncoder(rung: PlannedRung, preset: String, threads: Int, frameRate: FrameRate) throws -> Codec {
        try Codec.encoder(named: "libx264", options: [
            "preset": preset,
            "profile": "high",
            "forced-idr": "1",
            "x264-params": "scenecut=0:open-gop=0",
            "threads": "\(threads)",
        ]) { context in
            context.setPicture(width: Int32(rung.width), height: Int32(rung.height), pixelFormat: .yuv420p,
                               sampleAspectRatio: Rational(1, 1))
            context.setTiming(timeBase: frameRate.timeBase, frameRate: frameRate.rate)
            context.setKeyframeInterval(maximum: frameRate.framesPerKeyframeInterval * 10,
                                        minimum: frameRate.framesPerKeyframeInterval)
            context.setBitRate(Int64(rung.bitrate), maximum: Int64(Double(rung.bitrate) * TranscodeOptions.maxrateRatio),
                               bufferSize: Int32(Double(rung.bitrate) * TranscodeOptions.bufferSeconds))
            // The source stage hands over SDR BT.709 pictures (PictureCorrection), in limited range.
            context.tagBT709LimitedRange()
        }
    }

    /// Scales the picture to the rung's size (before rotation) and format; shares it when it already fits.
    private func scale(_ frame: Frame) throws -> Frame {
        let turned = rotation % 180 != 0
        let width = Int32(turned ? rung.height : rung.width)
        let height = Int32(turned ? rung.width : rung.height)
        guard frame.width != width || frame.height != height || frame.pixelFormat != .yuv420p else {
            return try frame.reference()
        }
        if scaler == nil || scaler?.sourceWidth != frame.width || scaler?.sourceHeight != frame.height
            || scaler?.sourceFormat != frame.pixelFormat {
            scaler = try Scaler(from: frame.width, frame.height, frame.pixelFormat, to: width, height, .yuv420p)
        }
        return try scaler!.scale(frame)
    }

    private func drain() throws {
        while try encoder.receive(into: packet) {
            try segmenter.add(video: packet)
            packet.unreference()
        }
    }
}
