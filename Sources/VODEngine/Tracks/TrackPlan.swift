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
    private(set) var audio: [(stream: MediaStream, name: String)] = []
    /// The text subtitle streams that become renditions, each with its NAME.
    private(set) var subtitles: [(stream: MediaStream, name: String)] = []
    /// Every video, audio and subtitle track, with what becomes of it.
    private(set) var listings: [TrackListing] = []

    init(input: InputFile, video: MediaStream?) {
        let program = video.map { input.streams(inProgramOf: $0) } ?? input.streams
        var audio: [(MediaStream, String)] = []
        var subtitles: [(MediaStream, String)] = []
        var reasons: [Int32: String] = [:]
        for stream in input.streams {
            let codec = stream.codecName
            switch stream.mediaType {
            case .video where stream != video:
                reasons[stream.index] = stream.isAttachedPicture
                    ? "cover art, not a video" : "another video: only the largest picture is transcoded"
            case .audio, .subtitle:
                let isAudio = stream.mediaType == .audio
                if !program.contains(stream) {
                    reasons[stream.index] = "it belongs to another program than the video"
                } else if !stream.hasDecoder {
                    reasons[stream.index] = "no decoder for \(codec)"
                } else if !isAudio, !stream.isTextSubtitle {
                    reasons[stream.index] = "bitmap subtitles (\(codec)) are not turned into text"
                } else if isAudio ? audio.count >= Self.maximumAudioTracks : subtitles.count >= Self.maximumSubtitleTracks {
                    let limit = isAudio ? Self.maximumAudioTracks : Self.maximumSubtitleTracks
                    reasons[stream.index] = "more than \(limit) \(isAudio ? "audio" : "subtitle") tracks: the first \(limit) are kept"
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
        let names = Dictionary(uniqueKeysWithValues: (self.audio + self.subtitles).map { ($0.stream.index, $0.name) })
        listings = input.streams.compactMap { stream in
            Self.listing(of: stream, isVideo: stream == video, name: names[stream.index],
                         reason: reasons[stream.index])
        }
    }

    /// The menu name: the title, else the language in its own words, "(description)" for audio description.
    private static func name(of stream: MediaStream, fallback: String) -> String {
        let title = stream.metadata("title")
        let name = TrackName.name(title: title, language: LanguageTag.rfc5646(stream.language), fallback: fallback)
        let described = title == nil && stream.isForVisuallyImpaired
        return described ? name + " (description)" : name
    }

    private static func listing(
        of stream: MediaStream, isVideo: Bool, name: String?, reason: String?
    ) -> TrackListing? {
        let type: String
        switch stream.mediaType {
        case .video: type = "video"
        case .audio: type = "audio"
        case .subtitle: type = "subtitle"
        case .other: return nil
        }
        let kept = isVideo || name != nil
        return TrackListing(
            index: Int(stream.index), type: type, codec: stream.codecName,
            language: LanguageTag.rfc5646(stream.language), title: stream.metadata("title"),
            channels: type == "audio" ? stream.channelCount : nil,
            isDefault: stream.isDefault, isForced: stream.isForced,
            status: kept ? .rendition : .skipped, rendition: name, reason: kept ? nil : reason ?? "not transcoded"
        )
    }
}
