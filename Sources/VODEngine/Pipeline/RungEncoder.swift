import Foundation
import VODFFmpeg

/// What the source stage sends each rung: constant-rate pictures and the shared AAC packets.
enum RungInput: @unchecked Sendable {
    /// A decoded picture whose `pts` is its output frame index.
    case video(Frame, isKeyframe: Bool)
    /// An encoded audio packet, this rung's own reference.
    case audio(Packet)
}

/// Scales, rotates and encodes one rung with libx264 (or libx265) and hands the packets to its segmenter.
///
/// Made on the source thread, then handed to a thread of its own that is the only one to use it.
final class RungEncoder: @unchecked Sendable {
    let rung: PlannedRung
    private var scaler: RungScaler
    private let frameRate: FrameRate
    private var encoder: Codec
    /// While the first segment is encoded with the start preset: the frame that starts the second segment, where
    /// the encoder of the rung's own preset (and the title's CRF) takes over, and how to make it.
    private var fastStart: (switchFrame: Int64, makeEncoder: () throws -> Codec)?
    /// Until the title's CRF is known (`PendingQuality`): the frame that starts the second segment, from which
    /// the rung's encoder takes it.
    private var pendingQuality: (frame: Int64, quality: PendingQuality)?
    private let segmenter: HLSSegmenter
    private let audioCodec: String?
    private let packet: Packet
    /// An HEVC rung's captions by the frame they came with, until its packet leaves the encoder (`HEVCCaptions`).
    private var captionsByFrame: [Int64: [UInt8]] = [:]
    /// Told the seconds of pictures given to the encoder so far, after each one.
    private let encoded: (Double) -> Void
    /// At constant quality in libx264: from which frame the encoder keeps a smaller buffer, and its size in bits
    /// (`RateControl.closingBufferShare`).
    private let closingBuffer: (frame: Int64, bits: Int32)?

    init(rung: PlannedRung, threads: Int, rotation: Int, frameRate: FrameRate, audio: AudioEncoderStage?,
         options: TranscodeOptions, directory: URL, initSegment: URL, publisher: LivePublisher?, cancellation: CancellationFlag,
         firstSegment: Int = 0, audioLeadIn: [Packet] = [], pendingQuality: PendingQuality? = nil, endFrame: Int64? = nil,
         encoded: @escaping (Double) -> Void = { _ in }) throws {
        self.rung = rung
        self.encoded = encoded
        closingBuffer = if rung.codec == .h264, rung.crf != nil, let endFrame,
            let frame = Self.closingFrame(before: endFrame, frameRate: frameRate) {
            (frame, Int32(Double(rung.bufferBits) * RateControl.closingBufferShare))
        } else { nil }
        scaler = RungScaler(rung: rung, rotation: rotation)
        self.frameRate = frameRate
        let makeEncoder = { (preset: String, rung: PlannedRung) in
            try Self.makeEncoder(rung: rung, preset: rung.codec == .hevc ? options.preset(of: rung) : preset, threads: threads,
                                 frameRate: frameRate, format: options.segmentFormat.carrying(rung.codec))
        }
        var schedule = SegmentSchedule(frameRate: frameRate, durations: options.segmentDurations)
        _ = schedule.nextBoundary()
        if firstSegment == 0 && options.startsFast(rung) {
            encoder = try makeEncoder(options.firstSegmentPreset, rung)
            fastStart = (schedule.boundaryFrame, {
                try makeEncoder(options.preset, try pendingQuality.map { rung.at(crf: try $0.choice().crf) } ?? rung)
            })
        } else {
            encoder = try makeEncoder(options.preset, rung)
        }
        if firstSegment == 0, let pendingQuality { self.pendingQuality = (schedule.boundaryFrame, pendingQuality) }
        audioCodec = audio?.codecString
        var start = SegmentSchedule(frameRate: frameRate, durations: options.segmentDurations)
        for _ in 0..<firstSegment { _ = start.nextBoundary() }
        segmenter = HLSSegmenter(directory: directory, video: encoder, audio: audio?.encoder, language: audio?.language,
                                 durations: options.segmentDurations, frameRate: frameRate, cancellation: cancellation,
                                 format: options.segmentFormat.carrying(rung.codec), initSegment: initSegment, firstSegment: firstSegment,
                                 firstKeyframe: frameRate.keyframesBefore(frame: start.boundaryFrame),
                                 keepsFirstSegmentAudio: fastStart != nil,
                                 sampleEntryBoxes: rung.lightLevels?.sampleEntryBoxes ?? [])
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
                if let pending = pendingQuality, frame.pts >= pending.frame {
                    let crf = try pending.quality.choice().crf + (rung.codec == .hevc ? Self.hevcCRFOffset : 0)
                    try encoder.setOption("crf", "\(crf)")
                    pendingQuality = nil
                }
                let scaled = try scaler.scale(frame)
                // The scaler's picture is new (or reused): the source picture's captions go with it.
                try scaled.setClosedCaptions(frame.closedCaptions)
                for follower in followers { try follower.push(.video(try scaled.reference(), isKeyframe: isKeyframe)) }
                let picture = try scaler.upright(scaled)
                if picture !== scaled { try picture.setClosedCaptions(frame.closedCaptions) }
                picture.pts = frame.pts
                picture.forcesKeyframe = isKeyframe
                if let closingBuffer, frame.pts >= closingBuffer.frame, encoder.bufferSize != closingBuffer.bits {
                    encoder.bufferSize = closingBuffer.bits
                }
                if rung.codec == .hevc, let captions = frame.closedCaptions { captionsByFrame[frame.pts] = captions }
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

    /// The frame after the last keyframe before `endFrame`, where the buffer gets smaller; nil when that keyframe
    /// is the first.
    static func closingFrame(before endFrame: Int64, frameRate: FrameRate) -> Int64? {
        var keyframe = endFrame - 1
        while keyframe > 0, !frameRate.isKeyframe(keyframe) { keyframe -= 1 }
        return keyframe > 0 ? keyframe + 1 : nil
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

    /// A libx264 encoder for `rung` with the rung's rate control (its CRF capped at its bitrate, its VBV buffer
    /// starting `bufferFill` full, by default as full as `RateControl.initialBufferFill(codec:preset:)` says; or
    /// its bitrate), the title's keyframe grid and BT.709 SDR tags. The closed captions a picture carries
    /// (`Frame.closedCaptions`) go into its SEI as A/53 user data (`a53cc`). An HEVC rung gets libx265
    /// (`makeHEVCEncoder`).
    static func makeEncoder(rung: PlannedRung, preset: String, threads: Int, frameRate: FrameRate, format: SegmentFormat,
                            bufferFill: Double? = nil) throws -> Codec {
        let bufferFill = bufferFill ?? RateControl.initialBufferFill(codec: rung.codec, preset: preset)
        if rung.codec == .hevc {
            return try makeHEVCEncoder(rung: rung, preset: preset, threads: threads, frameRate: frameRate, format: format,
                                       bufferFill: bufferFill)
        }
        var options = [
            "preset": preset,
            "profile": "high",
            "forced-idr": "1",
            "x264-params": "scenecut=0:open-gop=0",
            "threads": "\(threads)",
            "a53cc": "1",
        ]
        if let crf = rung.crf {
            options["crf"] = "\(crf)"
            options["x264-params"]! += ":vbv-init=\(bufferFill)"
        }
        return try Codec.encoder(named: "libx264", options: options) { configure($0, for: rung, frameRate: frameRate, format: format) }
    }

    /// What every rung's encoder is given, whatever its codec: the rung's size in square pixels of 8-bit 4:2:0, the
    /// title's time base and keyframe interval, the rung's bitrate, VBV cap and buffer, and BT.709 SDR tags, since
    /// the source stage hands over SDR BT.709 pictures (`PictureCorrection`) in limited range. An HDR rung is
    /// given 10-bit 4:2:0 in BT.2020 with its source's transfer, as the source stage keeps it.
    static func configure(_ context: EncoderContext, for rung: PlannedRung, frameRate: FrameRate, format: SegmentFormat) {
        context.setPicture(width: Int32(rung.width), height: Int32(rung.height), pixelFormat: rung.isHDR ? .yuv420p10le : .yuv420p,
                           sampleAspectRatio: Rational(1, 1))
        context.setTiming(timeBase: frameRate.timeBase, frameRate: frameRate.rate)
        context.setKeyframeInterval(maximum: frameRate.framesPerKeyframeInterval * 10,
                                    minimum: frameRate.framesPerKeyframeInterval)
        context.setBitRate(Int64(rung.bitrate), maximum: rung.maximumBitrate(framesPerSecond: frameRate.framesPerSecond, format: format),
                           bufferSize: rung.bufferBits)
        if let transfer = rung.hdrTransferCode {
            context.tagBT2020LimitedRange(transfer: transfer)
        } else {
            context.tagBT709LimitedRange()
        }
    }

    private func drain() throws {
        while try encoder.receive(into: packet) {
            if let captions = captionsByFrame.removeValue(forKey: packet.pts) {
                try packet.replacePayload(with: HEVCCaptions.inserting(captions, into: packet.bytes))
            }
            try segmenter.add(video: packet)
            packet.unreference()
        }
    }
}
