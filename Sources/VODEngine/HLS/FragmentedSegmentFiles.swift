import Foundation
import VODFFmpeg

/// The fragmented MP4 (CMAF) segment files of one rendition: an init segment (`ftyp` and `moov`, no samples) and
/// media segments, each an `styp` followed by one `moof`/`mdat` fragment per keyframe (one per segment for audio
/// alone), written by one MP4 muxer that is moved from file to file.
///
/// Each fragment's `tfdt` is the decode time of its first sample on the title's shifted timeline
/// (`frag_discont`, no edit list), and fragments are numbered from `firstFragment`, so the segments of the chunks
/// of a split title, each written by a muxer of its own, continue each other. The video's sample entry takes its
/// parameter sets from the first keyframe (`ParameterSets`), which also keeps them in-band.
final class FragmentedSegmentFiles: SegmentWriter {
    /// The muxer's flags: fragments only where this writer cuts them, the `moov` written (with the `ftyp`) at the
    /// first cut, once the first packets are known, data offsets from each `moof`, and no index at the end.
    private static let muxerOptions = [
        "movflags": "+frag_custom+empty_moov+delay_moov+default_base_moof+frag_discont+skip_trailer",
        "use_editlist": "0",
        "avoid_negative_ts": "disabled",
        "fflags": "+bitexact",
    ]
    /// The `styp` box that starts every media segment: brand `msdh`, a media segment.
    private static let styp: [UInt8] = [0, 0, 0, 20] + Array("stypmsdh".utf8) + [0, 0, 0, 0] + Array("msdh".utf8)

    private let directory: URL
    private var encoders: [Codec]
    private let language: (stream: Int, code: String)?
    private let cancellation: CancellationFlag
    private let firstIndex: Int
    private let initSegment: URL
    private let firstFragment: Int
    private let frameDuration: Double?
    /// Boxes added to the init segment's video sample entry (`SampleEntryBoxes`), such as an HDR rung's light levels.
    private let sampleEntryBoxes: [UInt8]
    private var output: OutputFile?
    private var initWritten = false
    /// Whether packets were written since the last fragment was cut.
    private var pending = false
    private(set) var isWriting = false
    private(set) var segments: [Segment] = []
    private(set) var keyframeRanges: [[ByteRange]] = []
    var onClose: ((Segment) throws -> Void)?

    init(directory: URL, encoders: [Codec], language: (stream: Int, code: String)?, cancellation: CancellationFlag,
         firstIndex: Int, initSegment: URL, firstFragment: Int, frameDuration: Double?, sampleEntryBoxes: [UInt8] = []) {
        self.directory = directory
        self.encoders = encoders
        self.language = language
        self.cancellation = cancellation
        self.firstIndex = firstIndex
        self.initSegment = initSegment
        self.firstFragment = firstFragment
        self.frameDuration = frameDuration
        self.sampleEntryBoxes = sampleEntryBoxes
    }

    func replaceEncoder(at stream: Int, with encoder: Codec) {
        encoders[stream] = encoder
    }

    func start(at time: Double) throws {
        try cancellation.check("write segment")
        let name = SegmentFormat.fmp4.fileName(ofSegment: firstIndex + segments.count)
        if isWriting {
            try cutFragment()
            if output == nil { try writeEmptySegment() }
            try openSegmentFile(name)
            try closed(end: time)
        }
        isWriting = true
        segments.append(Segment(fileName: name, start: time, duration: 0, bytes: 0))
    }

    func close(end: Double) throws {
        guard isWriting else { return }
        try cutFragment()
        if let output { try output.finish() } else { try writeEmptySegment() }
        output = nil
        isWriting = false
        try closed(end: end)
    }

    func write(_ packet: Packet, stream: Int32, timeBase: Rational) throws {
        guard isWriting else { return }
        let output = try self.output ?? open(with: packet, stream: Int(stream))
        if stream == 0, packet.duration <= 0, let frameDuration { packet.duration = timeBase.ticks(frameDuration) }
        try output.writeShifted(packet, stream: stream, timeBase: timeBase)
        pending = true
    }

    /// Starts a fragment with the keyframe, so that an I-frame is its `moof` and its first sample.
    func writeKeyframe(_ packet: Packet, stream: Int32, timeBase: Rational) throws {
        guard isWriting else { return }
        try cutFragment()
        try write(packet, stream: stream, timeBase: timeBase)
    }

    /// The muxer, made at the first packet: the video's parameter sets come from its first keyframe.
    private func open(with packet: Packet, stream: Int) throws -> OutputFile {
        let output = try OutputFile(path: temporary.path, format: "mp4", encoders: encoders, cancellation: cancellation)
        if let language { output.setLanguage(language.code, ofStream: language.stream) }
        if frameDuration != nil, encoders[0].extradata?.isEmpty ?? true {
            guard stream == 0, let sets = ParameterSets.annexB(in: packet.bytes, codec: encoders[0].name) else {
                throw MediaError.invalid("the first video packet of an fMP4 rendition carries no \(encoders[0].name) parameter sets")
            }
            try output.setExtradata(sets, ofStream: 0)
        }
        try output.writeHeader(options: Self.muxerOptions.merging(["fragment_index": "\(firstFragment)"]) { $1 })
        self.output = output
        return output
    }

    /// Writes out the fragment of the packets written since the last cut. The first cut writes the init segment,
    /// then moves the muxer to the current segment's file.
    private func cutFragment() throws {
        guard let output, pending else { return }
        if !initWritten {
            try output.flush()
            try openSegmentFile(segments[segments.count - 1].fileName)
            try SampleEntryBoxes.append(sampleEntryBoxes, toVideoSampleEntryIn: temporary)
            guard rename(temporary.path, initSegment.path) == 0 else {
                throw MediaError.invalid("could not write the init segment \(initSegment.path): \(String(cString: strerror(errno)))")
            }
            initWritten = true
        }
        try output.flush()
        pending = false
    }

    /// Moves the muxer to the segment file `name`, closing the one it wrote, and starts it with the `styp`.
    private func openSegmentFile(_ name: String) throws {
        guard let output else { return }
        try output.switchFile(to: url(of: name).path)
        output.writeBytes(Self.styp)
    }

    private func closed(end: Double) throws {
        recordClosed(&segments, in: directory, end: end)
        let closed = segments[segments.count - 1]
        keyframeRanges.append(frameDuration == nil ? [] : try FragmentIndex.firstSamples(in: url(of: closed.fileName), track: 1))
        try onClose?(closed)
    }

    /// The current segment, while no packet of it was written: its `styp` alone.
    private func writeEmptySegment() throws {
        try Data(Self.styp).write(to: url(of: segments[segments.count - 1].fileName))
    }

    /// Where the init segment is written before its first fragment is cut, under a name that is never served.
    private var temporary: URL {
        initSegment.deletingLastPathComponent().appendingPathComponent(".\(initSegment.lastPathComponent).new")
    }

    private func url(of name: String) -> URL { directory.appendingPathComponent(name) }
}
