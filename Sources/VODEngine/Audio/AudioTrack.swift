import VODFFmpeg
import VODModel

/// One audio track of the source: decoded once, measured, encoded once to AAC, and what the master playlist says
/// of it.
final class AudioTrack {
    let stream: MediaStream
    let decoder: Codec
    /// AAC stereo, for every player.
    let encoder: AudioEncoderStage
    /// AC-3 5.1, when the source has 5.1 or 7.1 sound.
    let surround: AudioEncoderStage?
    /// The RFC 5646 language, such as `fr`, when the source says.
    let language: String?
    /// What a person picks in a menu: the track's title, else its language in its own words.
    let name: String
    /// Whether the source marks the track as its default.
    let isDefault: Bool
    /// Every encoding of the track: AAC stereo, then AC-3 5.1 when there is one.
    var encoders: [AudioEncoderStage] { [encoder] + (surround.map { [$0] } ?? []) }
    /// Frames decoded before the first picture, held until the timeline's start is known.
    var held: [Frame] = []
    /// Measures the track's loudness as it is decoded.
    let meter: LoudnessMeter
    /// The track's loudness, once it is read to the end.
    var loudness: Loudness?

    /// Opens the track's decoder and encoders; `name` is its NAME in the master (see `TrackPlan`). Without
    /// `keepsSurround` a surround track is AAC stereo only; with `loudnessTarget` (LUFS) every encoding of it is
    /// brought to that loudness.
    init(stream: MediaStream, name: String, bitrate: Int, keepsSurround: Bool = true, loudnessTarget: Double? = nil) throws {
        self.stream = stream
        self.name = name
        decoder = try Codec.decoder(for: stream)
        let code = stream.language
        encoder = try AudioEncoderStage(decoder: decoder, language: code, format: .aacStereo(bitrate: bitrate),
                                        loudnessTarget: loudnessTarget)
        surround = keepsSurround && stream.channelCount >= 6
            ? try AudioEncoderStage(decoder: decoder, language: code, format: .ac3Surround, loudnessTarget: loudnessTarget) : nil
        language = LanguageTag.rfc5646(code)
        isDefault = stream.isDefault
        meter = try LoudnessMeter(timeBase: stream.timeBase)
    }
}
