import Foundation
import VODFFmpeg

/// Decodes the keyframes of one segment of a rendition: MPEG-TS, or fMP4 read after its init segment. Each segment starts with an IDR picture and
/// decodes alone, and every keyframe is an IDR (closed GOPs), so decoding may start at any keyframe.
enum SegmentDecoder {
    /// Decodes the keyframes of the segment at `path`, calling `body` with each and its time in seconds from
    /// the segment's first picture, until `body` returns false or the segment ends. Decoding starts at the last
    /// keyframe at or before `start` seconds (found by reading the packets first, without decoding). Only the
    /// keyframes are read and decoded, on one thread: every still is a keyframe, and a thumbnail on demand must
    /// not take more than one core.
    static func decode(
        _ segment: RenditionIndex.SegmentEntry, from start: Double = 0, cancellation: CancellationFlag,
        _ body: (Frame, Double) throws -> Bool
    ) throws {
        let (origin, skipped) = try keyframes(segment, before: start, cancellation: cancellation)
        let (input, stream) = try open(segment, cancellation: cancellation)
        let decoder = try Codec.decoder(for: stream, threads: 1)
        decoder.skipNonKeyframes()
        let timeBase = stream.timeBase
        let packet = try Packet()
        let frame = try Frame()
        /// Hands every picture the decoder has to `body`; false once `body` wants no more.
        func drain() throws -> Bool {
            while try decoder.receive(into: frame) {
                defer { frame.unreference() }
                let seconds = timeBase.seconds(frame.bestEffortTimestamp - origin)
                if try !body(frame, seconds) { return false }
            }
            return true
        }
        var keyframesSeen = 0
        while try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == stream.index else { continue }
            if packet.isKeyframe { keyframesSeen += 1 }
            guard keyframesSeen > skipped, packet.isKeyframe else { continue }
            try decoder.send(packet)
            if try !drain() { return }
        }
        try decoder.send(nil as Packet?)
        _ = try drain()
    }

    /// The segment opened for its video alone: an fMP4 segment read as the continuation of its init segment.
    private static func open(_ segment: RenditionIndex.SegmentEntry, cancellation: CancellationFlag) throws -> (InputFile, MediaStream) {
        let input = try segment.initPath.map { initPath in
            try InputFile(concatenating: [initPath, segment.path], formats: ["mp4"], limits: InputPolicy.decodeLimits,
                          cancellation: cancellation)
        } ?? InputFile(path: segment.path, formats: ["mpegts"], limits: InputPolicy.decodeLimits, cancellation: cancellation)
        guard let stream = input.bestStream(.video) else { throw MediaError.invalid("segment \(segment.path) has no picture") }
        input.discardStreams(except: [stream])
        return (input, stream)
    }

    /// Reads the segment's video packets without decoding them: the timestamp of its first keyframe, which is
    /// its first picture, and how many keyframes come before the last one at or before `start` seconds.
    private static func keyframes(_ segment: RenditionIndex.SegmentEntry, before start: Double,
                                  cancellation: CancellationFlag) throws -> (origin: Int64, skipped: Int) {
        let (input, stream) = try open(segment, cancellation: cancellation)
        let timeBase = stream.timeBase
        let packet = try Packet()
        var origin: Int64?
        var atOrBefore = 0
        while try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == stream.index, packet.isKeyframe else { continue }
            let timestamp = packet.hasPTS ? packet.pts : packet.dts
            let first = origin ?? timestamp
            origin = first
            let seconds = timeBase.seconds(timestamp - first)
            guard seconds <= start + 0.001 else { break }
            atOrBefore += 1
        }
        guard let origin else { throw MediaError.invalid("segment \(segment.path) has no keyframe") }
        return (origin, max(0, atOrBefore - 1))
    }
}
