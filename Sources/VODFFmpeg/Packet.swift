import CFFmpeg

/// Owns one `AVPacket`, freed exactly once when the owner goes away.
public final class Packet: @unchecked Sendable {
    /// The owned packet.
    let pointer: UnsafeMutablePointer<AVPacket>

    public init() throws {
        guard let packet = av_packet_alloc() else { throw FFmpegError.outOfMemory("allocate packet") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// A new packet that shares this packet's data (reference counted, no copy).
    public func reference() throws -> Packet {
        let copy = try Packet()
        try check(av_packet_ref(copy.pointer, pointer), "reference packet")
        return copy
    }

    /// Drops the packet's data so it can be filled again.
    public func unreference() { av_packet_unref(pointer) }

    public var streamIndex: Int32 {
        get { pointer.pointee.stream_index }
        set { pointer.pointee.stream_index = newValue }
    }
    public var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }
    public var dts: Int64 {
        get { pointer.pointee.dts }
        set { pointer.pointee.dts = newValue }
    }
    public var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }
    /// Whether the packet has a presentation timestamp.
    public var hasPTS: Bool { pointer.pointee.pts != vod_nopts_value() }
    public var size: Int { Int(pointer.pointee.size) }
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// The packet payload.
    public var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: pointer.pointee.data, count: size)
    }

    /// Replaces the payload with `bytes` in a buffer of its own, keeping the timestamps, flags and side data.
    public func replacePayload(with bytes: [UInt8]) throws {
        let padded = bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let buffer = av_buffer_allocz(padded) else { throw FFmpegError.outOfMemory("replace a packet's payload") }
        bytes.withUnsafeBufferPointer { buffer.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
        av_buffer_unref(&pointer.pointee.buf)
        pointer.pointee.buf = buffer
        pointer.pointee.data = buffer.pointee.data
        pointer.pointee.size = Int32(bytes.count)
    }

    /// Converts timestamps from one time base to another.
    public func rescale(from source: Rational, to destination: Rational) {
        av_packet_rescale_ts(pointer, source.avRational, destination.avRational)
    }
}
