import CFFmpeg
import VODFFmpeg

/// One audio track of the source: decoded once, encoded once to AAC, and what the master playlist says of it.
final class AudioTrack {
    let stream: UnsafeMutablePointer<AVStream>
    let decoder: Codec
    /// AAC stereo, for every player.
    let encoder: AudioEncoderStage
    /// AC-3 5.1, when the source has 5.1 or 7.1 sound.
    let surround: AudioEncoderStage?
    /// The RFC 5646 language, such as `fr`, when the source says.
    let language: String?
    /// What a person picks in a menu: the track's title, else its language in its own words.
    var name: String
    /// Whether the source marks the track as its default.
    let isDefault: Bool
    /// Every encoding of the track: AAC stereo, then AC-3 5.1 when there is one.
    var encoders: [AudioEncoderStage] { [encoder] + (surround.map { [$0] } ?? []) }
    /// Frames decoded before the first picture, held until the timeline's start is known.
    var held: [Frame] = []

    init(stream: UnsafeMutablePointer<AVStream>, bitrate: Int) throws {
        self.stream = stream
        decoder = try Codec.decoder(for: stream)
        let code = InputFile.language(of: stream)
        encoder = try AudioEncoderStage(decoder: decoder, language: code, format: .aacStereo(bitrate: bitrate))
        surround = stream.pointee.codecpar.pointee.ch_layout.nb_channels >= 6
            ? try AudioEncoderStage(decoder: decoder, language: code, format: .ac3Surround) : nil
        language = LanguageTag.rfc5646(code)
        isDefault = stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        let title = InputFile.metadata("title", of: stream)
        var name = TrackName.name(title: title, language: language, fallback: "Audio")
        if title == nil, stream.pointee.disposition & AV_DISPOSITION_VISUAL_IMPAIRED != 0 { name += " (description)" }
        self.name = name
    }

    /// The tracks that become renditions: every decodable audio track of the program that holds `video`, at
    /// most `limit`, in the source's order.
    static func tracks(of input: InputFile, relatedTo video: UnsafeMutablePointer<AVStream>, limit: Int, bitrate: Int) -> [AudioTrack] {
        var tracks: [AudioTrack] = []
        for stream in input.streams(of: AVMEDIA_TYPE_AUDIO, relatedTo: video) where tracks.count < limit {
            if let track = try? AudioTrack(stream: stream, bitrate: bitrate) { tracks.append(track) }
        }
        for (track, name) in zip(tracks, TrackName.unique(tracks.map(\.name))) { track.name = name }
        return tracks
    }
}
