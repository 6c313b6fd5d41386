import CFFmpeg
import VODFFmpeg
import VODModel

/// One text subtitle track of the source (SubRip, ASS/SSA, mov_text, WebVTT), decoded into cues as it is read.
final class SubtitleTrack {
    /// Codecs whose events are text; bitmap tracks (PGS, VobSub, DVB) are not turned into text.
    static let textCodecs: Set<UInt32> = [
        AV_CODEC_ID_SUBRIP.rawValue, AV_CODEC_ID_SRT.rawValue, AV_CODEC_ID_ASS.rawValue, AV_CODEC_ID_SSA.rawValue,
        AV_CODEC_ID_MOV_TEXT.rawValue, AV_CODEC_ID_WEBVTT.rawValue, AV_CODEC_ID_TEXT.rawValue,
    ]

    let stream: UnsafeMutablePointer<AVStream>
    private let decoder: Codec
    /// The RFC 5646 language, such as `en`, when the source says.
    let language: String?
    let name: String
    let isDefault: Bool
    let isForced: Bool
    /// The cues read so far, in source seconds (not yet on the title's timeline).
    private(set) var cues: [SubtitleCue] = []

    /// Opens the track's decoder; `name` is its NAME in the master (see `TrackPlan`).
    init(stream: UnsafeMutablePointer<AVStream>, name: String) throws {
        self.stream = stream
        self.name = name
        decoder = try Codec.decoder(for: stream)
        language = LanguageTag.rfc5646(InputFile.language(of: stream))
        isDefault = stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        isForced = stream.pointee.disposition & AV_DISPOSITION_FORCED != 0
    }

    /// Decodes a packet of this track into cues; a packet that does not decode is skipped, as a player would.
    func add(_ packet: Packet) {
        guard packet.pts != vod_nopts_value(), let events = try? decoder.decodeSubtitle(packet) else { return }
        let timeBase = stream.pointee.time_base
        let time = Double(packet.pts) * av_q2d(timeBase)
        let duration = Double(packet.pointer.pointee.duration) * av_q2d(timeBase)
        for event in events {
            guard let text = SubtitleCue.text(ofDialogue: event.text) else { continue }
            let end = event.end.map { time + $0 } ?? time + (duration > 0 ? duration : 5)
            if end > time + event.start { cues.append(SubtitleCue(start: time + event.start, end: end, text: text)) }
        }
    }
}
