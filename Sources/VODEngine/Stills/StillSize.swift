import Foundation
import VODFFmpeg

/// The size of a still: a width and the height that keeps the picture's aspect ratio, both even, never larger
/// than the picture it is taken from.
public struct StillSize: Sendable, Equatable, Codable {
    public var width: Int
    public var height: Int

    /// `width` wide (capped at the source's width) with the source's aspect ratio; square pixels.
    init(width: Int, sourceWidth: Int, sourceHeight: Int) {
        let capped = min(width, sourceWidth)
        self.width = max(2, capped - capped % 2)
        let scaled = Double(self.width) * Double(sourceHeight) / Double(sourceWidth)
        height = max(2, Int((scaled / 2).rounded()) * 2)
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `frame` scaled to this size as a full-range `yuvj420p` picture, ready for `JPEGEncoder`.
    func picture(from frame: Frame) throws -> Frame {
        let scaler = try Scaler(from: frame.width, frame.height, frame.pixelFormat,
                                to: Int32(width), Int32(height), .yuvj420p, flags: Scaler.accurateBicubic)
        return try scaler.scale(frame)
    }

    /// `frame` as JPEG bytes at this size.
    func jpeg(from frame: Frame) throws -> Data {
        try JPEGEncoder.encode(try picture(from: frame))
    }
}
