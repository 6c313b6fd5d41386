import Foundation
import VODFFmpeg

/// Muxes one rung's video packets and the shared audio packets into segments of the title's format (MPEG-TS or
/// fMP4), cutting only at IDR frames once the segment's target duration is reached (`SegmentDurations`), and
/// records the byte range of every I-frame.
///
/// Packets are interleaved by decode time: audio waits until a video packet at least as late arrives, and the
/// audio before a cut is written before the cut.
final class HLSSegmenter {
    private var video: Codec
    private let audio: Codec?
    private let durations: SegmentDurations
    private let firstSegment: Int
    private let frameDuration: Double
    private let files: any SegmentWriter
    private var pendingAudio: [Packet] = []
    private var segmentStart = 0.0
    private var iFrames: [IFrame] = []
    private(set) var videoCodec: String?
    /// The audio packets written into the title's first segment, as they were before writing, when asked to keep
    /// them (`keepsFirstSegmentAudio`).
    private(set) var firstSegmentAudio: [Packet] = []
    private let keepsFirstSegmentAudio: Bool
    /// Told of each segment once it is complete, with its I-frames (durations set) and the video CODECS.
    var onSegment: ((Segment, [IFrame], String) throws -> Void)?

    /// Writes into `directory` in `format`; an fMP4 rendition's init segment goes to `initSegment`, and its
    /// fragments are numbered from the keyframe that starts segment `firstSegment`, `firstKeyframe` (from 0), and
    /// its video sample entry gets `sampleEntryBoxes`.
    init(directory: URL, video: Codec, audio: Codec?, language: String?, durations: SegmentDurations, frameRate: FrameRate,
         cancellation: CancellationFlag, format: SegmentFormat = .ts, initSegment: URL? = nil, firstSegment: Int = 0,
         firstKeyframe: Int64 = 0, keepsFirstSegmentAudio: Bool = false, sampleEntryBoxes: [UInt8] = []) {
        self.video = video
        self.keepsFirstSegmentAudio = keepsFirstSegmentAudio && firstSegment == 0
        self.audio = audio
        self.durations = durations
        self.firstSegment = firstSegment
        self.frameDuration = 1 / frameRate.framesPerSecond
        let encoders = [video] + (audio.map { [$0] } ?? [])
        files = format.writer(directory: directory, encoders: encoders,
                              language: audio == nil ? nil : language.map { (stream: 1, code: $0) }, cancellation: cancellation,
                              firstSegment: firstSegment,
                              initSegment: initSegment ?? directory.appendingPathComponent(SegmentFormat.initSegment),
                              firstFragment: Int(firstKeyframe) + 1, frameDuration: 1 / frameRate.framesPerSecond,
                              sampleEntryBoxes: sampleEntryBoxes)
        files.onClose = { [unowned self] in try closed($0) }
    }

    /// Takes the packets of `encoder` from now on: a new encoder of the same picture format and time base,
    /// whose first packet starts a segment.
    func switchVideo(to encoder: Codec) {
        video = encoder
        files.replaceEncoder(at: 0, with: encoder)
    }

    /// Takes an encoded audio packet (in the audio encoder's time base).
    func add(audio packet: Packet) {
        pendingAudio.append(packet)
    }

    /// Takes an encoded video packet (in the video encoder's time base) and writes what is due.
    func add(video packet: Packet) throws {
        let time = video.timeBase.seconds(packet.pts)
        try writeAudio(upTo: video.timeBase.seconds(packet.dts))
        if packet.isKeyframe {
            if videoCodec == nil { videoCodec = CodecString.video(codec: video.name, keyframe: packet.bytes) }
            let target = durations.target(ofSegment: firstSegment + files.segments.count - 1)
            if !files.isWriting || time - segmentStart >= target - frameDuration / 2 {
                // The sound before the cut ends this segment with its picture, rather than starting the next:
                // a segment ends as it plays, also when it is the last one a growing title has published.
                try writeAudio(upTo: time.nextDown)
                try files.start(at: time)
                segmentStart = time
            }
            try files.writeKeyframe(packet, stream: 0, timeBase: video.timeBase)
            iFrames.append(IFrame(segmentIndex: files.segments.count - 1, offset: 0, length: 0, time: time, duration: 0))
        } else {
            try files.write(packet, stream: 0, timeBase: video.timeBase)
        }
    }

    /// Writes the remaining audio that starts before `end` seconds, closes the last segment and returns them.
    func finish(end: Double) throws -> (segments: [Segment], iFrames: [IFrame]) {
        try writeAudio(upTo: end, dropLater: true)
        try files.close(end: end)
        for index in iFrames.indices {
            let next = index + 1 < iFrames.count ? iFrames[index + 1].time : end
            iFrames[index].duration = SegmentFiles.written(next - iFrames[index].time)
        }
        return (files.segments, iFrames)
    }

    /// Gives the I-frames of the segment just closed their byte ranges, then tells `onSegment` of it.
    private func closed(_ segment: Segment) throws {
        let index = files.segments.count - 1
        let ranges = files.keyframeRanges[index]
        let positions = iFrames.indices.filter { iFrames[$0].segmentIndex == index }
        guard ranges.count == positions.count else {
            throw MediaError.invalid("\(segment.fileName) holds \(ranges.count) I-frames where \(positions.count) keyframes were written")
        }
        for (position, range) in zip(positions, ranges) {
            iFrames[position].offset = range.offset
            iFrames[position].length = range.length
        }
        guard let onSegment else { return }
        var frames = iFrames.filter { $0.segmentIndex == index }
        for position in frames.indices {
            let next = position + 1 < frames.count ? frames[position + 1].time : segment.start + segment.duration
            frames[position].duration = SegmentFiles.written(next - frames[position].time)
        }
        try onSegment(segment, frames, videoCodec ?? "")
    }

    private func writeAudio(upTo limit: Double, dropLater: Bool = false) throws {
        guard let audio, files.isWriting else { return }
        var written = 0
        for packet in pendingAudio {
            if audio.timeBase.seconds(packet.dts) > limit { break }
            if keepsFirstSegmentAudio && files.segments.count == 1 { firstSegmentAudio.append(try packet.reference()) }
            try files.write(packet, stream: 1, timeBase: audio.timeBase)
            written += 1
        }
        pendingAudio.removeFirst(written)
        if dropLater { pendingAudio.removeAll() }
    }
}
