import Foundation
import VODFFmpeg

/// Where a piece of a file lies: its first byte and its length.
struct ByteRange: Sendable, Equatable {
    var offset: Int64
    var length: Int64
}

/// The segment files of one rendition, in the title's `SegmentFormat`: what `HLSSegmenter` and
/// `AudioRenditionWriter` cut and write, on the title's shifted timeline (`SegmentFiles.timelineOffset`).
protocol SegmentWriter: AnyObject {
    /// Whether a segment is started and not yet closed.
    var isWriting: Bool { get }
    /// The segments started so far; the last one is still being written while `isWriting`.
    var segments: [Segment] { get }
    /// For each closed segment, in order, the byte range of each I-frame (`writeKeyframe`) in its file.
    var keyframeRanges: [[ByteRange]] { get }
    /// Told of each segment once it is complete on disk.
    var onClose: ((Segment) throws -> Void)? { get set }

    /// Holds `encoder` in place of the one stream `stream` was made from (same parameters, a new encoder of the
    /// same rendition).
    func replaceEncoder(at stream: Int, with encoder: Codec)
    /// Closes the current segment, if any, and starts the next one at `time` seconds.
    func start(at time: Double) throws
    /// Finishes the current segment, which lasts until `end` seconds, and the muxer.
    func close(end: Double) throws
    /// Writes `packet`, in `timeBase`, as stream `stream` of the current segment.
    func write(_ packet: Packet, stream: Int32, timeBase: Rational) throws
    /// Writes a keyframe that an I-frame playlist lists, as stream `stream`; its range is in `keyframeRanges`
    /// once its segment is closed.
    func writeKeyframe(_ packet: Packet, stream: Int32, timeBase: Rational) throws
}

extension SegmentWriter {
    /// Records the last segment, whose file is complete, as lasting until `end` seconds, with its size.
    func recordClosed(_ segments: inout [Segment], in directory: URL, end: Double) {
        let last = segments.count - 1
        segments[last].duration = SegmentFiles.written(end - segments[last].start)
        segments[last].bytes = OutputFolder.fileSize(atPath: directory.appendingPathComponent(segments[last].fileName).path) ?? 0
    }
}

extension OutputFile {
    /// Writes `packet`, in `timeBase`, as stream `stream`, moved onto the title's shifted timeline in the
    /// stream's own time base.
    func writeShifted(_ packet: Packet, stream: Int32, timeBase: Rational) throws {
        let streamTimeBase = self.timeBase(ofStream: Int(stream))
        packet.streamIndex = stream
        packet.rescale(from: timeBase, to: streamTimeBase)
        let offset = streamTimeBase.ticks(SegmentFiles.timelineOffset)
        packet.pts += offset
        packet.dts += offset
        try write(packet)
    }
}
