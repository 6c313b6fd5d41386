import CFFmpeg

/// The closed captions a picture carries: CEA-608/708 in ATSC A/53 user data, which decoders of H.264 and MPEG-2
/// attach to the picture they come with and libx264 (with `a53cc`) writes into that picture's SEI.
extension Frame {
    /// The picture's `cc_data` triplets (`cc_valid`/`cc_type` byte, then two data bytes), nil when it has none.
    public var closedCaptions: [UInt8]? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_A53_CC), side.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: side.pointee.data, count: Int(side.pointee.size)))
    }

    /// Replaces the picture's captions with `bytes` (`cc_data` triplets); nil or empty removes them.
    public func setClosedCaptions(_ bytes: [UInt8]?) throws {
        av_frame_remove_side_data(pointer, AV_FRAME_DATA_A53_CC)
        guard let bytes, !bytes.isEmpty else { return }
        guard let side = av_frame_new_side_data(pointer, AV_FRAME_DATA_A53_CC, bytes.count) else {
            throw FFmpegError.outOfMemory("attach closed captions")
        }
        bytes.withUnsafeBufferPointer { side.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
    }
}
