import VODFFmpeg

/// Encodes one audio track once, in one `AudioFormat` (AAC-LC stereo, or AC-3 5.1), at 48 kHz.
///
/// Samples are placed on the video's timeline: a late start or a gap is filled with silence, samples before
/// the first video frame are dropped, and at the end the audio is cut or padded to the video's duration.
/// Fewer or more channels than the format's are mixed by swresample's standard matrix: to stereo, centre and
/// surrounds at −3 dB and the LFE left out.
final class AudioEncoderStage {
    static let sampleRate: Int32 = 48_000
    let format: AudioFormat
    /// The opened encoder; muxers copy its parameters.
    let encoder: Codec
    /// The track's ISO 639-2 language, which segments carry in their PMT.
    let language: String?
    private let resampler: Resampler
    private let fifo: AudioFIFO
    private var queuedSamples: Int64 = 0
    private var encodedSamples: Int64 = 0
    private let packet: Packet

    /// Brings the encoding to the loudness target, when there is one.
    private let normalizer: LoudnessNormalizer?

    /// An encoding of `decoder`'s audio in `format`; with `loudnessTarget` (LUFS) brought to that loudness after
    /// the mix to the format's channels, so each rendition, downmix included, is at the target.
    init(decoder: Codec, language: String?, format: AudioFormat, loudnessTarget: Double? = nil) throws {
        self.language = language
        self.format = format
        let channels = Int32(format.channels)
        let options = loudnessTarget != nil && format.encoder == "aac" ? LoudnessNormalizer.aacOptions : [:]
        encoder = try Codec.encoder(named: format.encoder, options: options) { context in
            context.setAudio(sampleRate: Self.sampleRate, format: .floatPlanar, channels: channels)
            context.setBitRate(Int64(format.bitrate))
            context.setTiming(timeBase: Rational(1, Self.sampleRate))
            if format.encoder == "aac" { context.useAACLowComplexity() }
        }
        resampler = try Resampler(from: decoder, sampleRate: Self.sampleRate, channels: channels, format: .floatPlanar)
        fifo = try AudioFIFO(format: .floatPlanar, channels: channels, sampleRate: Self.sampleRate)
        packet = try Packet()
        normalizer = try loudnessTarget.map { try LoudnessNormalizer(target: $0, timeBase: Rational(1, Self.sampleRate)) }
    }

    /// The RFC 6381 codec of the encoded audio: `ac-3`, or for AAC read from its AudioSpecificConfig, such as
    /// `mp4a.40.2`.
    var codecString: String? {
        guard format.encoder == "aac" else { return "ac-3" }
        return encoder.extradata.flatMap(CodecString.mp4a)
    }

    /// Where the audio received so far ends on the video timeline, in seconds.
    var queuedDuration: Double { Double(queuedSamples) / Double(Self.sampleRate) }

    /// Takes a decoded frame starting at `time` seconds on the video timeline, or right after the previous
    /// frame when its time is unknown.
    func push(_ frame: Frame, time: Double?, emit: (Packet) throws -> Void) throws {
        let converted = try resampler.convert(frame)
        guard let normalizer else { return try place(converted, time: time, emit: emit) }
        if let time { converted.pts = Int64((time * Double(Self.sampleRate)).rounded()) }
        try normalizer.push(converted) { try place($0, time: $1, emit: emit) }
    }

    /// Queues `converted`, audio in the encoder's format starting at `time` seconds on the video timeline (right
    /// after the previous when unknown), and encodes every full frame.
    private func place(_ converted: Frame, time: Double?, emit: (Packet) throws -> Void) throws {
        let position = time.map { Int64(($0 * Double(Self.sampleRate)).rounded()) } ?? queuedSamples
        let gap = position - queuedSamples
        if queuedSamples == 0 && gap < 0 {
            let skip = Int32(min(-gap, Int64(converted.sampleCount)))
            try fifo.write(converted)
            fifo.drop(skip)
            queuedSamples += Int64(converted.sampleCount - skip)
        } else {
            if gap > Int64(Self.sampleRate) / 10 || (queuedSamples == 0 && gap > 0) {
                try fifo.writeSilence(Int32(gap))
                queuedSamples += gap
            }
            try fifo.write(converted)
            queuedSamples += Int64(converted.sampleCount)
        }
        try encodeFullFrames(emit: emit)
    }

    /// Drains the resampler, fits the audio to `duration` seconds and flushes the encoder.
    func finish(duration: Double, emit: (Packet) throws -> Void) throws {
        let tail = try resampler.convert(nil)
        if let normalizer {
            if tail.sampleCount > 0 { try normalizer.push(tail) { try place($0, time: $1, emit: emit) } }
            try normalizer.push(nil) { try place($0, time: $1, emit: emit) }
        } else {
            try fifo.write(tail)
            queuedSamples += Int64(tail.sampleCount)
        }
        let target = Int64((duration * Double(Self.sampleRate)).rounded())
        if queuedSamples < target {
            try fifo.writeSilence(Int32(target - queuedSamples))
            queuedSamples = target
        }
        try encodeFullFrames(emit: emit)
        let remaining = min(Int64(fifo.count), max(0, target - encodedSamples))
        if remaining > 0 { try encode(try fifo.read(Int32(remaining)), emit: emit) }
        try encoder.send(nil as Frame?)
        try drain(emit: emit)
    }

    private func encodeFullFrames(emit: (Packet) throws -> Void) throws {
        let frameSize = encoder.frameSize
        while fifo.count >= frameSize {
            try encode(try fifo.read(frameSize), emit: emit)
        }
    }

    private func encode(_ frame: Frame, emit: (Packet) throws -> Void) throws {
        frame.pts = encodedSamples
        encodedSamples += Int64(frame.sampleCount)
        try encoder.send(frame)
        try drain(emit: emit)
    }

    private func drain(emit: (Packet) throws -> Void) throws {
        while try encoder.receive(into: packet) {
            try emit(try packet.reference())
            packet.unreference()
        }
    }
}
