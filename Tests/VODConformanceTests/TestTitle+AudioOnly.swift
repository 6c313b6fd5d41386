import Foundation
import VODConformance

/// An audio-only title, as a podcast in two languages becomes: English and French AAC-LC stereo renditions in
/// group "aac", and one STREAM-INF that plays the default (English) rendition and declares the larger one's rates.
///
/// ffmpeg's hls muxer encodes each rendition; the master is written here from the measured segment sizes.
extension TestTitle {
    static let audioOnly: Result<TestTitle, FixtureError> = Result {
        try TestTitle.makeAudioOnly()
    }.mapError { FixtureError(message: "\($0)") }

    private static func makeAudioOnly() throws -> TestTitle {
        let directory = try temporaryDirectory()
        let title = TestTitle(directory: directory, rungs: [], removing: directory)
        try title.encodeAudio("audio_en", input: "sine=frequency=440:sample_rate=48000", codec: ["-c:a", "aac", "-ac", "2"])
        try title.encodeAudio("audio_fr", input: "sine=frequency=660:sample_rate=48000", codec: ["-c:a", "aac", "-ac", "2", "-b:a", "160k"])
        let rates = try ["audio_en", "audio_fr"].map { try title.bitRates(RungSpec(name: $0, width: 0, height: 0)) }
        let peak = Int(rates.map(\.peak).max()!.rounded(.up))
        let average = Int(rates.map(\.average).max()!.rounded(.up))
        try title.write("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio_en/index.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,CHANNELS="2",URI="audio_fr/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=\(peak),AVERAGE-BANDWIDTH=\(average),CODECS="mp4a.40.2",AUDIO="aac"
            audio_en/index.m3u8

            """, to: "master.m3u8")
        return title
    }
}
