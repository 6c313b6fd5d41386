import VODFFmpeg
import VODModel

/// One text subtitle track of the source (SubRip, ASS/SSA, mov_text, WebVTT), decoded into cues as it is read.
final class SubtitleTrack {
    let stream: MediaStream
    private let decoder: Codec
    /// The RFC 5646 language, such as `en`, when the source says.
    let language: String?
    let name: String
    let isDefault: Bool
    let isForced: Bool
    /// The cues read so far, in source seconds (not yet on the title's timeline).
    private(set) var cues: [SubtitleCue] = []

    /// Opens the track's decoder; `name` is its NAME in the master (see `TrackPlan`).
    init(stream: MediaStream, name: String) throws {
        self.stream = stream
        self.name = name
        decoder = try Codec.decoder(for: stream)
        language = LanguageTag.rfc5646(stream.language)
        isDefault = stream.isDefault
        isForced = stream.isForced
    }

    /// Decodes a packet of this track into cues; a packet that does not decode is skipped, as a player would.
    func add(_ packet: Packet) {
        guard packet.hasPTS, let events = try? decoder.decodeSubtitle(packet) else { return }
        let timeBase = stream.timeBase
        let time = Double(packet.pts) * timeBase.value
        let duration = Double(packet.duration) * timeBase.value
        for event in events {
            guard let text = SubtitleCue.text(ofDialogue: event.text) else { continue }
            let end = event.end.map { time + $0 } ?? time + (duration > 0 ? duration : 5)
            if end > time + event.start { cues.append(SubtitleCue(start: time + event.start, end: end, text: text)) }
        }
    }
}
