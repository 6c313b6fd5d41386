import Foundation
import VODFFmpeg

/// The MPEG-TS segment files of one rendition: each starts with PAT and PMT and is decodable alone, on the
/// title's shifted timeline, and one muxer writes them all, so they also read as one stream; and the list of
/// what was written.
final class SegmentFiles: SegmentWriter {
    /// Timestamps are shifted by this much so B-frame decode times and AAC priming stay positive.
    static let timelineOffset = 1.4

    private let directory: URL
    private var encoders: [Codec]
    private let language: (stream: Int, code: String)?
    private let cancellation: CancellationFlag
    /// The number of the first segment: 0, or where a chunk of a split title starts.
    private let firstIndex: Int
    /// The segment being written, if any.
    private(set) var current: OutputFile?
    private(set) var segments: [Segment] = []
    private(set) var keyframeRanges: [[ByteRange]] = []
    /// The I-frames written into the current segment.
    private var currentRanges: [ByteRange] = []
    /// Told of each segment once it is complete on disk.
    var onClose: ((Segment) throws -> Void)?

    /// Segments in `directory` holding one stream per encoder; `language` tags one stream in every PMT.
    init(directory: URL, encoders: [Codec], language: (stream: Int, code: String)?, cancellation: CancellationFlag,
         firstIndex: Int = 0) {
        self.firstIndex = firstIndex
        self.directory = directory
        self.encoders = encoders
        self.language = language
        self.cancellation = cancellation
    }

    /// The MPEG-TS muxer's options: the title's timestamps as they are, and the PAT, PMT and SDT written only
    /// where a player needs them, at each segment's start (`OutputFile.continueWriting(into:)`) and before
    /// each keyframe, instead of every 0.1 s (PAT and PMT) and 0.5 s (SDT): 44 packets in each 2 s segment,
    /// 33 kb/s that counted against a rung's cap at constant quality without carrying a picture.
    static let muxerOptions = ["avoid_negative_ts": "disabled", "mpegts_copyts": "1", "pat_period": "86400", "sdt_period": "86400"]

    /// Holds `encoder` in place of the one stream `stream` was made from (same parameters, a new encoder of the
    /// same rendition), letting the old one go.
    func replaceEncoder(at stream: Int, with encoder: Codec) {
        encoders[stream] = encoder
    }

    /// Closes the current segment, if any, and starts the next one at `time` seconds, in the same muxer, so
    /// that the segments of a rendition read as one stream (continuity counters run on across files).
    func start(at time: Double) throws {
        try cancellation.check("write segment")
        let name = SegmentFormat.ts.fileName(ofSegment: firstIndex + segments.count)
        let path = directory.appendingPathComponent(name).path
        if let output = current {
            try output.continueWriting(into: path)
            try closed(end: time)
        } else {
            let output = try OutputFile(path: path, format: "mpegts", encoders: encoders, cancellation: cancellation)
            if let language { output.setLanguage(language.code, ofStream: language.stream) }
            try output.writeHeader(options: Self.muxerOptions)
            current = output
        }
        segments.append(Segment(fileName: name, start: time, duration: 0, bytes: 0))
    }

    /// Finishes the current segment, which lasts until `end` seconds, and the muxer.
    func close(end: Double) throws {
        guard let output = current else { return }
        try output.finish()
        current = nil
        try closed(end: end)
    }

    /// Records the last segment, whose file is complete, as lasting until `end` seconds.
    private func closed(end: Double) throws {
        recordClosed(&segments, in: directory, end: end)
        keyframeRanges.append(currentRanges)
        currentRanges = []
        try onClose?(segments[segments.count - 1])
    }

    /// Writes `packet`, in `timeBase`, as stream `stream` of the current segment.
    func write(_ packet: Packet, stream: Int32, timeBase: Rational) throws {
        try current?.writeShifted(packet, stream: stream, timeBase: timeBase)
    }

    /// Writes a keyframe; its I-frame is the bytes the muxer writes for it: the PAT and PMT before it, when they
    /// start the segment, and its PES packet.
    func writeKeyframe(_ packet: Packet, stream: Int32, timeBase: Rational) throws {
        guard let output = current else { return }
        let offset = output.position
        try write(packet, stream: stream, timeBase: timeBase)
        currentRanges.append(ByteRange(offset: offset, length: output.position - offset))
    }

    var isWriting: Bool { current != nil }

    /// A duration rounded to the precision the playlists write.
    static func written(_ duration: Double) -> Double {
        (duration * PlaylistWriter.durationPrecision).rounded() / PlaylistWriter.durationPrecision
    }
}
