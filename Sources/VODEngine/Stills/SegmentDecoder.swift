import CFFmpeg
import Foundation
import VODFFmpeg

/// Decodes the pictures of one MPEG-TS segment of a rendition. Each segment starts with an IDR picture and
/// decodes alone, so a picture is found by decoding one segment from its start.
enum SegmentDecoder {
    /// Decodes the video of the segment at `path`, calling `body` with each picture and its time in seconds
    /// from the segment's first picture, until `body` returns false or the segment ends. With
    /// `keyframesOnly`, only the keyframes are read and decoded: quick, for pictures on the keyframe grid.
    static func decode(
        _ path: String, keyframesOnly: Bool, cancellation: CancellationFlag, _ body: (Frame, Double) throws -> Bool
    ) throws {
        let input = try InputFile(path: path, formats: ["mpegts"], cancellation: cancellation)
        guard let stream = input.bestStream(AVMEDIA_TYPE_VIDEO) else { throw MediaError.invalid("segment \(path) has no picture") }
        input.discardStreams(except: [stream])
        let decoder = try Codec.decoder(for: stream, threads: keyframesOnly ? 1 : 0)
        if keyframesOnly { decoder.context.pointee.skip_frame = AVDISCARD_NONKEY }
        let timeBase = stream.pointee.time_base
        let packet = try Packet()
        let frame = try Frame()
        var origin: Int64?
        /// Hands every picture the decoder has to `body`; false once `body` wants no more.
        func drain() throws -> Bool {
            while try decoder.receive(into: frame) {
                defer { frame.unreference() }
                let timestamp = frame.bestEffortTimestamp
                let first = origin ?? timestamp
                origin = first
                let seconds = Double(timestamp - first) * Double(timeBase.num) / Double(timeBase.den)
                if try !body(frame, seconds) { return false }
            }
            return true
        }
        while try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == stream.pointee.index, !keyframesOnly || packet.isKeyframe else { continue }
            try decoder.send(packet)
            if try !drain() { return }
        }
        try decoder.send(nil as Packet?)
        _ = try drain()
    }
}
