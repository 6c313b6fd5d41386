import CFFmpeg
import VODFFmpeg
import VODModel

/// Which tracks of a source become renditions, and under which names: decided once from the streams, so the
/// probe's track list and the transcode agree.
struct TrackPlan {
    /// Audio tracks made into renditions at most; further tracks are left out.
    static let maximumAudioTracks = 8
    /// Subtitle tracks made into renditions at most.
    static let maximumSubtitleTracks = 16

    /// The audio streams that become renditions, each with its NAME.
    private(set) var audio: [(stream: UnsafeMutablePointer<AVStream>, name: String)] = []
    /// The text subtitle streams that become renditions, each with its NAME.
    private(set) var subtitles: [(stream: UnsafeMutablePointer<AVStream>, name: String)] = []
    /// Every video, audio and subtitle track, with what becomes of it.
    private(set) var listings: [TrackListing] = []

    init(input: InputFile, video: UnsafeMutablePointer<AVStream>?) {
        let program = video.map { input.streams(inProgramOf: $0) } ?? input.streams
        var audio: [(UnsafeMutablePointer<AVStream>, String)] = []
        var subtitles: [(UnsafeMutablePointer<AVStream>, String)] = []
        var reasons: [Int32: String] = [:]
        for stream in input.streams {
            let parameters = stream.pointee.codecpar.pointee
            let codec = String(cString: avcodec_get_name(parameters.codec_id))
            switch parameters.codec_type {
            case AVMEDIA_TYPE_VIDEO where stream != video:
                reasons[stream.pointee.index] = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
                    ? "cover art, not a video" : "another video: only the largest picture is transcoded"
            case AVMEDIA_TYPE_AUDIO, AVMEDIA_TYPE_SUBTITLE:
                let isAudio = parameters.codec_type == AVMEDIA_TYPE_AUDIO
                if !program.contains(stream) {
                    reasons[stream.pointee.index] = "it belongs to another program than the video"
                } else if avcodec_find_decoder(parameters.codec_id) == nil {
                    reasons[stream.pointee.index] = "no decoder for \(codec)"
                } else if !isAudio, !SubtitleTrack.textCodecs.contains(parameters.codec_id.rawValue) {
                    reasons[stream.pointee.index] = "bitmap subtitles (\(codec)) are not turned into text"
                } else if isAudio ? audio.count >= Self.maximumAudioTracks : subtitles.count >= Self.maximumSubtitleTracks {
                    let limit = isAudio ? Self.maximumAudioTracks : Self.maximumSubtitleTracks
                    reasons[stream.pointee.index] = "more than \(limit) \(isAudio ? "audio" : "subtitle") tracks: the first \(limit) are kept"
                } else if isAudio {
                    audio.append((stream, Self.name(of: stream, fallback: "Audio")))
                } else {
                    subtitles.append((stream, Self.name(of: stream, fallback: "Subtitles")))
                }
            default:
                continue
            }
        }
        self.audio = zip(audio, TrackName.unique(audio.map(\.1))).map { ($0.0, $1) }
        self.subtitles = zip(subtitles, TrackName.unique(subtitles.map(\.1))).map { ($0.0, $1) }
        let names = Dictionary(uniqueKeysWithValues: (self.audio + self.subtitles).map { ($0.stream.pointee.index, $0.name) })
        listings = input.streams.compactMap { stream in
            Self.listing(of: stream, isVideo: stream == video, name: names[stream.pointee.index],
                         reason: reasons[stream.pointee.index])
        }
    }

    /// The menu name: the title, else the language in its own words, "(description)" for audio description.
    private static func name(of stream: UnsafeMutablePointer<AVStream>, fallback: String) -> String {
        let title = InputFile.metadata("title", of: stream)
        let name = TrackName.name(title: title, language: LanguageTag.rfc5646(InputFile.language(of: stream)), fallback: fallback)
        let described = title == nil && stream.pointee.disposition & AV_DISPOSITION_VISUAL_IMPAIRED != 0
        return described ? name + " (description)" : name
    }

    private static func listing(
        of stream: UnsafeMutablePointer<AVStream>, isVideo: Bool, name: String?, reason: String?
    ) -> TrackListing? {
        let parameters = stream.pointee.codecpar.pointee
        let type: String
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: type = "video"
        case AVMEDIA_TYPE_AUDIO: type = "audio"
        case AVMEDIA_TYPE_SUBTITLE: type = "subtitle"
        default: return nil
        }
        let kept = isVideo || name != nil
        return TrackListing(
            index: Int(stream.pointee.index), type: type, codec: String(cString: avcodec_get_name(parameters.codec_id)),
            language: LanguageTag.rfc5646(InputFile.language(of: stream)), title: InputFile.metadata("title", of: stream),
            channels: type == "audio" ? Int(parameters.ch_layout.nb_channels) : nil,
            isDefault: stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0,
            isForced: stream.pointee.disposition & AV_DISPOSITION_FORCED != 0,
            status: kept ? .rendition : .skipped, rendition: name, reason: kept ? nil : reason ?? "not transcoded"
        )
    }
}
