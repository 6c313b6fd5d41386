import VODFFmpeg

/// Scales pictures to a rung's size (before rotation) and format, sharing those that already fit; its scaler
/// is made again when the pictures change size or format.
struct RungScaler {
    let rung: PlannedRung
    /// Degrees clockwise the picture turns after scaling.
    let rotation: Int
    private var scaler: Scaler?

    init(rung: PlannedRung, rotation: Int) {
        self.rung = rung
        self.rotation = rotation
    }

    /// `frame` at the rung's size before rotation, in 4:2:0: 8-bit, or 10-bit for an HDR rung.
    mutating func scale(_ frame: Frame) throws -> Frame {
        let turned = rotation % 180 != 0
        let width = Int32(turned ? rung.height : rung.width)
        let height = Int32(turned ? rung.width : rung.height)
        guard frame.width != width || frame.height != height || frame.pixelFormat != (rung.isHDR ? .yuv420p10le : .yuv420p) else {
            return try frame.reference()
        }
        if scaler == nil || scaler?.sourceWidth != frame.width || scaler?.sourceHeight != frame.height
            || scaler?.sourceFormat != frame.pixelFormat {
            scaler = try Scaler(from: frame.width, frame.height, frame.pixelFormat, to: width, height, rung.isHDR ? .yuv420p10le : .yuv420p)
        }
        return try scaler!.scale(frame)
    }

    /// A scaled picture turned upright, as the rung encodes it.
    func upright(_ scaled: Frame) throws -> Frame {
        rotation == 0 ? scaled : try PictureRotator.rotate(scaled, clockwise: rotation)
    }
}
