import CFFmpeg
import Foundation
import VODFFmpeg

/// Muxes one rung's video packets and the shared audio packets into MPEG-TS segments, cutting only at IDR
/// frames once the target duration is reached, and records the byte range of every I-frame.
///
/// Packets are interleaved by decode time: audio waits until a video packet at least as late arrives. Each
/// segment is its own muxer, so it starts with PAT and PMT and is decodable alone.
final class HLSSegmenter {
    /// Timestamps are shifted by this much so B-frame decode times and AAC priming stay positive.
    static let timelineOffset = 1.4

    private let directory: URL
    private let video: Codec
    private let audio: Codec?
    private let language: String?
    private let targetDuration: Double
    private let frameDuration: Double
    private let cancellation: CancellationFlag
    private var pendingAudio: [Packet] = []
    private var current: OutputFile?
    private var segmentStart = 0.0
    private var segments: [Segment] = []
    private var iFrames: [IFrame] = []
    private(set) var videoCodec: String?

    init(directory: URL, video: Codec, audio: Codec?, language: String?, targetDuration: Double, frameRate: FrameRate,
         cancellation: CancellationFlag) {
        self.directory = directory
        self.video = video
        self.audio = audio
        self.language = language
        self.targetDuration = targetDuration
        self.frameDuration = 1 / frameRate.framesPerSecond
        self.cancellation = cancellation
    }

    /// Takes an encoded audio packet (in the audio encoder's time base).
    func add(audio packet: Packet) {
        pendingAudio.append(packet)
    }

    /// Takes an encoded video packet (in the video encoder's time base) and writes what is due.
    func add(video packet: Packet) throws {
        let time = seconds(packet.pts, video.context.pointee.time_base)
        try writeAudio(upTo: seconds(packet.dts, video.context.pointee.time_base))
        if packet.isKeyframe {
            if videoCodec == nil { videoCodec = CodecString.avc(annexB: packet.bytes) }
            if current == nil || time - segmentStart >= targetDuration - frameDuration / 2 {
                try startSegment(at: time)
            }
            let offset = current!.position
            try write(packet, stream: 0, timeBase: video.context.pointee.time_base)
            iFrames.append(IFrame(segmentIndex: segments.count - 1, offset: offset, length: current!.position - offset,
                                  time: time, duration: 0))
        } else {
            guard current != nil else { return }
            try write(packet, stream: 0, timeBase: video.context.pointee.time_base)
        }
    }

    /// Writes the remaining audio that starts before `end` seconds, closes the last segment and returns them.
    func finish(end: Double) throws -> (segments: [Segment], iFrames: [IFrame]) {
        try writeAudio(upTo: end, dropLater: true)
        try closeSegment(end: end)
        for index in iFrames.indices {
            let next = index + 1 < iFrames.count ? iFrames[index + 1].time : end
            iFrames[index].duration = Self.written(next - iFrames[index].time)
        }
        return (segments, iFrames)
    }

    private func startSegment(at time: Double) throws {
        try closeSegment(end: time)
        try cancellation.check("write segment")
        let name = String(format: "segment_%03d.ts", segments.count)
        let encoders = [video] + (audio.map { [$0] } ?? [])
        let output = try OutputFile(path: directory.appendingPathComponent(name).path, format: "mpegts",
                                    encoders: encoders, cancellation: cancellation)
        if audio != nil, let language { output.setLanguage(language, ofStream: 1) }
        try output.writeHeader(options: ["avoid_negative_ts": "disabled", "mpegts_copyts": "1"])
        current = output
        segmentStart = time
        segments.append(Segment(fileName: name, start: time, duration: 0, bytes: 0))
    }

    private func closeSegment(end: Double) throws {
        guard let output = current else { return }
        try output.finish()
        current = nil
        let last = segments.count - 1
        segments[last].duration = Self.written(end - segments[last].start)
        segments[last].bytes = OutputFolder.fileSize(atPath: directory.appendingPathComponent(segments[last].fileName).path) ?? 0
    }

    private func writeAudio(upTo limit: Double, dropLater: Bool = false) throws {
        guard let audio, current != nil else { return }
        var written = 0
        for packet in pendingAudio {
            if seconds(packet.dts, audio.context.pointee.time_base) > limit { break }
            try write(packet, stream: 1, timeBase: audio.context.pointee.time_base)
            written += 1
        }
        pendingAudio.removeFirst(written)
        if dropLater { pendingAudio.removeAll() }
    }

    private func write(_ packet: Packet, stream: Int32, timeBase: AVRational) throws {
        guard let output = current else { return }
        let streamTimeBase = output.timeBase(ofStream: Int(stream))
        packet.streamIndex = stream
        packet.rescale(from: timeBase, to: streamTimeBase)
        let offset = Int64((Self.timelineOffset * Double(streamTimeBase.den) / Double(streamTimeBase.num)).rounded())
        packet.pts += offset
        packet.dts += offset
        try output.write(packet)
    }

    /// A duration rounded to the precision the playlists write.
    private static func written(_ duration: Double) -> Double {
        (duration * PlaylistWriter.durationPrecision).rounded() / PlaylistWriter.durationPrecision
    }

    private func seconds(_ value: Int64, _ timeBase: AVRational) -> Double {
        Double(value) * Double(timeBase.num) / Double(timeBase.den)
    }
}
