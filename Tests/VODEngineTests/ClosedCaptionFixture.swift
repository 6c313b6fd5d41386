import Foundation
import VODFFmpeg

/// H.264 with CEA-608 captions in its pictures' A/53 SEI, as US broadcasts and many web streams carry them: each
/// picture is handed to libx264 (with `a53cc`, its own A/53 writer) with `cc_data` triplets attached, one CC1 byte
/// pair a picture in field 1 and padding in field 2, as a caption encoder feeds a broadcast encoder, and after
/// them, on the pictures that have some, CEA-708 DTVCC triplets (`dtvccPacket`).
enum ClosedCaptionFixture {
    /// A pop-on caption: its rows, loaded before `shownAt` and shown from that picture until `erasedAt` (or the end).
    struct Caption {
        var rows: [String]
        var shownAt: Int
        var erasedAt: Int?
    }

    /// The frame rate of the fixture: NTSC's.
    static let frameRate = Rational(30000, 1001)

    /// Writes an MPEG-TS of `frames` pictures of `width` × `height` (a gradient with a moving bar) carrying
    /// `captions` on CC1 and the DTVCC triplets `dtvcc` gives a picture.
    static func make(_ path: String, width: Int32, height: Int32, frames: Int, captions: [Caption],
                     dtvcc: [Int: [UInt8]] = [:]) throws {
        FFmpegLog.keepErrorsOnly()
        let pairs = schedule(captions)
        let encoder = try Codec.encoder(named: "libx264", options: ["preset": "veryfast", "a53cc": "1"]) { context in
            context.setPicture(width: width, height: height, pixelFormat: .yuv420p, sampleAspectRatio: Rational(1, 1))
            context.setTiming(timeBase: frameRate.inverse, frameRate: frameRate)
            context.setKeyframeInterval(maximum: 60, minimum: 30)
        }
        let output = try OutputFile(path: path, format: "mpegts", encoders: [encoder], cancellation: CancellationFlag())
        try output.writeHeader()
        let packet = try Packet()
        let drain = {
            while try encoder.receive(into: packet) {
                packet.rescale(from: frameRate.inverse, to: output.timeBase(ofStream: 0))
                packet.streamIndex = 0
                try output.write(packet)
                packet.unreference()
            }
        }
        for index in 0..<frames {
            let picture = try Frame.video(width: width, height: height, format: .yuv420p)
            paint(picture, frame: index)
            picture.pts = Int64(index)
            let pair = pairs[index] ?? [0x80, 0x80]
            try picture.setClosedCaptions([0xFC, pair[0], pair[1], 0xFD, 0x80, 0x80] + (dtvcc[index] ?? []))
            try encoder.send(picture)
            try drain()
        }
        try encoder.send(nil as Frame?)
        try drain()
        try output.finish()
    }

    /// The CC1 byte pair of each picture that has one: Resume Caption Loading, Erase Non-displayed Memory, a
    /// preamble address code and the text of each row (rows 15 up), then End Of Caption on `shownAt`, and Erase
    /// Displayed Memory on `erasedAt`; each command twice, as caption encoders send them.
    static func schedule(_ captions: [Caption]) -> [Int: [UInt8]] {
        var pairs: [Int: [UInt8]] = [:]
        for caption in captions {
            var loading: [[UInt8]] = [[0x14, 0x20], [0x14, 0x20], [0x14, 0x2E], [0x14, 0x2E]]
            for (offset, row) in caption.rows.enumerated() {
                let address: [UInt8] = [[0x14, 0x60], [0x14, 0x40], [0x13, 0x60]][caption.rows.count - 1 - offset]
                loading += [address, address]
                let bytes = Array(row.utf8)
                loading += stride(from: 0, to: bytes.count, by: 2).map { [bytes[$0], $0 + 1 < bytes.count ? bytes[$0 + 1] : 0] }
            }
            for (offset, pair) in loading.enumerated() { pairs[caption.shownAt - loading.count + offset] = pair }
            pairs[caption.shownAt] = [0x14, 0x2F]
            pairs[caption.shownAt + 1] = [0x14, 0x2F]
            if let erased = caption.erasedAt {
                pairs[erased] = [0x14, 0x2C]
                pairs[erased + 1] = [0x14, 0x2C]
            }
        }
        return pairs.mapValues { $0.map(withOddParity) }
    }

    /// The triplets of a CEA-708 DTVCC packet holding one service block of `service` with `text` (G0
    /// characters): the packet header (sequence number, size in byte pairs), the block header (with the extended
    /// header byte for services 7 and up), the text, a null byte to an even size; its first byte pair in a
    /// `cc_type` 3 triplet, the others in `cc_type` 2 ones.
    static func dtvccPacket(service: Int, text: String, sequence: UInt8) -> [UInt8] {
        let characters: [UInt8] = Array(text.utf8)
        let size = UInt8(characters.count)
        let header: [UInt8] = service < 7 ? [UInt8(service) << 5 | size] : [7 << 5 | size, UInt8(service)]
        var packet: [UInt8] = [0] + header + characters
        if packet.count % 2 == 1 { packet.append(0) }
        packet[0] = sequence << 6 | UInt8(packet.count / 2)
        return stride(from: 0, to: packet.count, by: 2).flatMap { (index: Int) -> [UInt8] in
            [index == 0 ? 0xFF : 0xFE, packet[index], packet[index + 1]]
        }
    }

    /// A CEA-608 byte: seven bits and the parity bit that makes the count of ones odd.
    static func withOddParity(_ byte: UInt8) -> UInt8 {
        let bits = byte & 0x7F
        return bits.nonzeroBitCount % 2 == 0 ? bits | 0x80 : bits
    }

    /// A diagonal gradient with a bright bar that moves a few pixels a picture, and neutral chroma.
    private static func paint(_ picture: Frame, frame index: Int) {
        let width = Int(picture.width)
        let height = Int(picture.height)
        let luma = picture.planeData(0)!
        let stride = picture.lineSize(ofPlane: 0)
        let bar = (index * 8) % width
        // Pixel (row, column) is 16 + (row + column + index) % 200: each row is the ramp from its own offset, copied
        // whole rather than pixel by pixel, which a debug build makes slow.
        let ramp = (0..<(width + height)).map { UInt8(16 + ($0 + index) % 200) }
        ramp.withUnsafeBufferPointer { ramp in
            for row in 0..<height {
                let line = luma + row * stride
                memcpy(line, ramp.baseAddress! + row, width)
                memset(line + bar, 235, min(16, width - bar))
            }
        }
        for plane in 1...2 {
            let data = picture.planeData(plane)!
            let chromaStride = picture.lineSize(ofPlane: plane)
            for row in 0..<height / 2 { memset(data + row * chromaStride, 128, width / 2) }
        }
    }
}
