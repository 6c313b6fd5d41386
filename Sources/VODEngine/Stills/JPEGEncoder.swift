import CFFmpeg
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
            context.pointee.width = frame.width
            context.pointee.height = frame.height
            context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.time_base = AVRational(num: 1, den: 25)
            context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            context.pointee.global_quality = Int32(FF_QP2LAMBDA) * quality
        }
        frame.pointer.pointee.quality = Int32(FF_QP2LAMBDA) * quality
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
