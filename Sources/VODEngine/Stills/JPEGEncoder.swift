import Foundation
import VODFFmpeg

/// Encodes pictures as baseline JPEG with libavcodec's `mjpeg` encoder: full-range 4:2:0 (`yuvj420p`) at a
/// fixed quantiser.
enum JPEGEncoder {
    /// The quantiser: 2 (best) … 31; 4 keeps posters and tiles sharp at a fraction of their raw size.
    static let quality: Int32 = 4

    /// The JPEG bytes of `frame`, a `yuvj420p` picture.
    static func encode(_ frame: Frame) throws -> Data {
        let codec = try Codec.encoder(named: "mjpeg") { context in
            context.setPicture(width: frame.width, height: frame.height, pixelFormat: .yuvj420p)
            context.tagFullRange()
            context.setTiming(timeBase: Rational(1, 25))
            context.useFixedQuantiser(quality)
        }
        frame.setQuantiser(quality)
        frame.pts = 0
        try codec.send(frame)
        try codec.send(nil as Frame?)
        let packet = try Packet()
        var bytes = Data()
        while try codec.receive(into: packet) {
            bytes.append(packet.bytes)
            packet.unreference()
        }
        guard !bytes.isEmpty else { throw MediaError.invalid("the JPEG encoder produced nothing") }
        return bytes
    }
}
