import CFFmpeg

/// Owns an `AVAudioFifo` that regroups samples into the fixed frame size an audio encoder wants.
public final class AudioFIFO: @unchecked Sendable {
    private let fifo: OpaquePointer
    private let format: AVSampleFormat
    private let channels: Int32
    private let sampleRate: Int32

    public init(format: AVSampleFormat, channels: Int32, sampleRate: Int32) throws {
        guard let fifo = av_audio_fifo_alloc(format, channels, 4096) else {
            throw FFmpegError.outOfMemory("allocate audio buffer")
        }
        self.fifo = fifo
        self.format = format
        self.channels = channels
        self.sampleRate = sampleRate
    }

    deinit { av_audio_fifo_free(fifo) }

    /// The number of buffered samples.
    public var count: Int32 { av_audio_fifo_size(fifo) }

    /// Appends the samples of `frame`.
    public func write(_ frame: Frame) throws {
        guard frame.sampleCount > 0 else { return }
        let data = UnsafeMutableRawPointer(frame.pointer.pointee.extended_data)
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        try check(av_audio_fifo_write(fifo, data, frame.sampleCount), "buffer audio")
    }

    /// Appends `count` samples of silence.
    public func writeSilence(_ count: Int32) throws {
        guard count > 0 else { return }
        let silence = try makeFrame(samples: count)
        av_samples_set_silence(silence.pointer.pointee.extended_data, 0, count, channels, format)
        try write(silence)
    }

    /// Drops `count` samples from the front.
    public func drop(_ count: Int32) {
        av_audio_fifo_drain(fifo, min(count, self.count))
    }

    /// Removes up to `samples` samples into a new frame.
    public func read(_ samples: Int32) throws -> Frame {
        let frame = try makeFrame(samples: min(samples, count))
        let data = UnsafeMutableRawPointer(frame.pointer.pointee.extended_data)
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        let read = av_audio_fifo_read(fifo, data, frame.sampleCount)
        try check(read, "read buffered audio")
        frame.pointer.pointee.nb_samples = read
        return frame
    }

    private func makeFrame(samples: Int32) throws -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.nb_samples = max(samples, 1)
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.sample_rate = sampleRate
        av_channel_layout_default(&frame.pointer.pointee.ch_layout, channels)
        try check(av_frame_get_buffer(frame.pointer, 0), "allocate audio")
        frame.pointer.pointee.nb_samples = samples
        return frame
    }
}
