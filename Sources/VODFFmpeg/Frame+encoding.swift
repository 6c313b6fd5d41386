import CFFmpeg

/// What a frame tells the encoder it is sent to.
extension Frame {
    /// Whether the encoder must make this picture a keyframe; otherwise the encoder chooses its picture type.
    public var forcesKeyframe: Bool {
        get { pointer.pointee.pict_type == AV_PICTURE_TYPE_I }
        set { pointer.pointee.pict_type = newValue ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE }
    }

    /// Gives the picture the fixed quantiser of an encoder that uses one (`EncoderContext.useFixedQuantiser`).
    public func setQuantiser(_ quantiser: Int32) {
        pointer.pointee.quality = Int32(FF_QP2LAMBDA) * quantiser
    }
}
