import Foundation

/// Writes a subtitle track as a WebVTT rendition: one `.vtt` segment per video segment, each tied to the TS
/// timeline by `X-TIMESTAMP-MAP`, with a cue that spans a boundary in both segments; and the whole track as one
/// file for download.
enum WebVTTWriter {
    /// The file holding the whole track.
    static let completeFile = "subtitles.vtt"

    /// Writes `cues` (on the title's timeline) into `directory` on the boundaries of `videoSegments`, and
    /// returns the rendition's segments.
    static func write(_ cues: [SubtitleCue], videoSegments: [Segment], to directory: URL) throws -> [Segment] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sorted = cues.sorted { $0.start < $1.start }
        var segments: [Segment] = []
        for (index, video) in videoSegments.enumerated() {
            let end = video.start + video.duration
            let inside = sorted.filter { $0.start < end && $0.end > video.start }
            let name = String(format: "segment_%03d.vtt", index)
            let data = Data(document(inside, timestampMap: true).utf8)
            try data.write(to: directory.appendingPathComponent(name))
            segments.append(Segment(fileName: name, start: video.start, duration: video.duration, bytes: Int64(data.count)))
        }
        try Data(document(sorted, timestampMap: false).utf8).write(to: directory.appendingPathComponent(completeFile))
        return segments
    }

    /// A WebVTT file of `cues`; with `timestampMap`, local time 0 is the title's start on the TS timeline.
    static func document(_ cues: [SubtitleCue], timestampMap: Bool) -> String {
        var text = "WEBVTT\n"
        if timestampMap {
            let ticks = Int((SegmentFiles.timelineOffset * 90_000).rounded())
            text += "X-TIMESTAMP-MAP=MPEGTS:\(ticks),LOCAL:00:00:00.000\n"
        }
        for cue in cues {
            text += "\n\(timestamp(cue.start)) --> \(timestamp(cue.end))\n\(cue.text)\n"
        }
        return text
    }

    /// `hh:mm:ss.ttt`.
    static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((max(seconds, 0) * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
                      milliseconds / 1000 % 60, milliseconds % 1000)
    }
}
