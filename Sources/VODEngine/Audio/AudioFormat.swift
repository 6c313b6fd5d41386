
/// What an audio rendition is encoded as: AAC-LC stereo for every player, AC-3 5.1 for surround systems.
struct AudioFormat: Sendable, Equatable {
    /// libavcodec's encoder name.
    let encoder: String
    let channels: Int
    let bitrate: Int
    /// The master's audio group of renditions in this format.
    let group: String

    /// The group of the stereo renditions, which every player can play.
    static let stereoGroup = "aac"

    /// AAC-LC, 48 kHz stereo, at `bitrate`.
    static func aacStereo(bitrate: Int) -> AudioFormat {
        AudioFormat(encoder: "aac", channels: 2, bitrate: bitrate, group: stereoGroup)
    }

    /// AC-3 5.1 at 448 kb/s, the rate of DVDs and broadcasts, for a source with 5.1 or 7.1 sound.
    static let ac3Surround = AudioFormat(encoder: "ac3", channels: 6, bitrate: 448_000, group: "ac3")
}
