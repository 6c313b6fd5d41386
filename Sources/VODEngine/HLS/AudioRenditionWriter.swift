import Foundation
import VODFFmpeg

/// Writes one encoding of an audio track as an audio-only rendition: segments cut at the video's segment times,
/// MPEG-TS each with its own PAT and PMT (which carries the language), or fMP4 after an init segment (whose
/// `mdhd` carries it), one fragment per segment.
final class AudioRenditionWriter {
    private let encoder: Codec
    private let files: any SegmentWriter
    private var schedule: SegmentSchedule
    private var boundary: Double
    /// Half a frame of the video, and the packets held from the next cut on (`add`).
    private let halfFrame: Double
    private var held: [Packet] = []

    /// Writes into `directory` in `format`; `publish` is told of each segment once it is complete.
    init(directory: URL, encoding: AudioEncoderStage, frameRate: FrameRate, durations: SegmentDurations, format: SegmentFormat,
         cancellation: CancellationFlag, publish: ((Segment) throws -> Void)? = nil) {
        encoder = encoding.encoder
        files = format.writer(directory: directory, encoders: [encoder], language: encoding.language.map { (stream: 0, code: $0) },
                              cancellation: cancellation, firstSegment: 0,
                              initSegment: directory.appendingPathComponent(SegmentFormat.initSegment), firstFragment: 1,
                              frameDuration: nil)
        schedule = SegmentSchedule(frameRate: frameRate, durations: durations)
        boundary = schedule.nextBoundary()
        halfFrame = 0.5 / frameRate.framesPerSecond
        files.onClose = publish
    }

    /// Writes an audio packet (in the encoder's time base) into the segment whose time it starts in. Packets
    /// from the next cut on are held until one ends half a frame past it: only then does the video have a picture
    /// there (`FrameRateConverter.finish(until:)`), and so a segment that starts at the cut, which the audio's must
    /// match; sound that ends sooner stays in the segment before, with the last picture.
    func add(_ packet: Packet) throws {
        let time = Double(packet.pts) * encoder.timeBase.value
        if !files.isWriting { try files.start(at: 0) }
        guard time >= boundary || !held.isEmpty else {
            return try files.write(try packet.reference(), stream: 0, timeBase: encoder.timeBase)
        }
        held.append(try packet.reference())
        guard time + Double(packet.duration) * encoder.timeBase.value >= boundary + halfFrame else { return }
        for packet in held {
            while Double(packet.pts) * encoder.timeBase.value >= boundary {
                try files.start(at: boundary)
                boundary = schedule.nextBoundary()
            }
            try files.write(packet, stream: 0, timeBase: encoder.timeBase)
        }
        held = []
    }

    /// Closes the last segment at `end` seconds (with the video's remaining cuts, should the audio stop short
    /// of them) and returns every segment.
    func finish(end: Double) throws -> [Segment] {
        if !files.isWriting { try files.start(at: 0) }
        for packet in held {
            while Double(packet.pts) * encoder.timeBase.value >= boundary, boundary < end - 0.001 {
                try files.start(at: boundary)
                boundary = schedule.nextBoundary()
            }
            try files.write(packet, stream: 0, timeBase: encoder.timeBase)
        }
        held = []
        while boundary < end - 0.001 {
            try files.start(at: boundary)
            boundary = schedule.nextBoundary()
        }
        try files.close(end: end)
        return files.segments
    }
}
