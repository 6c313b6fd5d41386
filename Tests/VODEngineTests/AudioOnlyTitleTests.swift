import Foundation
import Testing
@testable import VODEngine
import VODTestSupport

/// Podcasts, music and soundtracks become audio-only titles: AAC renditions, a master and media playlists that
/// players play, and the duration of the sound.
@Suite("Audio-only titles", .serialized, .tags(.ffmpeg, .gstreamer), .needsExternalTools, .timeLimit(.minutes(10)))
struct AudioOnlyTitleTests {
    @Test func anAACPodcastBecomesOneAudioVariant() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await AudioOnlyClip(tracks: [ToneTrack(frequency: 440)], duration: 13).make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(abs(result.duration - 13) < 0.03, "the title lasts as long as the sound: \(result.duration)")
        #expect(abs(try result.playlistDuration() - result.duration) < 0.001)
        #expect(result.variants.map(\.name) == ["aac"] && result.variants[0].codecs == "mp4a.40.2")
        let master = try lines(of: result.masterPlaylist)
        #expect(!master.contains { $0.hasPrefix("#EXT-X-MEDIA:") }, "one rendition needs no alternates")
        let variant = try #require(master.first { $0.hasPrefix("#EXT-X-STREAM-INF:") })
        #expect(variant.contains(#"CODECS="mp4a.40.2""#) && !variant.contains("RESOLUTION") && !variant.contains("VIDEO-RANGE"))
        #expect(master.last == "audio_0/index.m3u8")
        let streams = try await IndependentPlayers.streams(at: result.segment("audio_0"))
        #expect(streams.map(\.codec_type) == ["audio"] && streams[0].channels == 2 && streams[0].sample_rate == "48000")
        let playlist = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("audio_0/index.m3u8").path
        #expect(abs(try await AudioRenditionTests.toneFrequency(of: playlist) - 440) < 15)
    }

    /// A 5.1 or 7.1 soundtrack (an AC-3 film track, a studio's 24-bit PCM master in WAV: the MXF muxer here
    /// takes no audio-only file) gets the AC-3 5.1 rendition a video title gets, beside the AAC stereo downmix:
    /// each encoding a variant of its own, with no `#EXT-X-MEDIA` line (GStreamer's hlsdemux stops between two
    /// groups of alternates whose variants are the audio itself).
    @Test(arguments: [("ac3", 6, "film.ac3"), ("pcm_s24le", 6, "master.wav"), ("pcm_s24le", 8, "master-7.1.wav")])
    func surroundGetsAnAC3RenditionBesideTheStereoDownmix(codec: String, channels: Int, fileName: String) async throws {
        let directory = try TemporaryDirectory()
        let clip = try await AudioOnlyClip(duration: 3.5, codec: codec, channels: channels, fileName: fileName).make(in: directory.url)
        #expect(try MediaProber.probe(path: clip).audio?.channels == channels)
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map(\.codecs) == ["mp4a.40.2", "ac-3"])
        #expect(abs(result.duration - 3.5) < 0.05, "\(result.duration)")
        let master = try lines(of: result.masterPlaylist)
        #expect(!master.contains { $0.hasPrefix("#EXT-X-MEDIA:") })
        let variants = master.indices.filter { master[$0].hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.map { master[$0 + 1] } == ["audio_0/index.m3u8", "audio_1/index.m3u8"])
        #expect(master[variants[1]].contains(#"CODECS="ac-3""#) && !master[variants[1]].contains("AUDIO="))
        let stereo = try await IndependentPlayers.streams(at: result.segment("audio_0"))
        #expect(stereo.map(\.codec_name) == ["aac"] && stereo[0].channels == 2)
        let surround = try await IndependentPlayers.streams(at: result.segment("audio_1"))
        #expect(surround.map(\.codec_name) == ["ac3"] && surround[0].channels == 6 && surround[0].sample_rate == "48000")
        let playlist = result.masterPlaylist.deletingLastPathComponent().appendingPathComponent("audio_0/index.m3u8").path
        #expect(abs(try await AudioRenditionTests.toneFrequency(of: playlist) - 440) < 15, "the downmix keeps the sound")
    }

    /// Several tracks stay AAC stereo alternates, a surround one downmixed: two groups of alternates whose
    /// variants are the audio itself stop GStreamer's hlsdemux when it switches between them.
    @Test func severalSurroundTracksAreStereoAlternates() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await AudioOnlyClip(tracks: [
            ToneTrack(frequency: 440, metadata: ["language=eng"]), ToneTrack(frequency: 660, metadata: ["language=fre"]),
        ], duration: 3, codec: "ac3", channels: 6, fileName: "tracks.mka").make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map(\.codecs) == ["mp4a.40.2"])
        let media = try lines(of: result.masterPlaylist).filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=AUDIO") }
        #expect(media.count == 2 && media.allSatisfy { $0.contains(#"CHANNELS="2""#) })
    }

    @Test func threeLanguagesPlayFromTheDefaultTrack() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await AudioOnlyClip(tracks: [
            ToneTrack(frequency: 300, metadata: ["language=eng"]),
            ToneTrack(frequency: 500, metadata: ["language=fre"], disposition: "default"),
            ToneTrack(frequency: 700, metadata: ["language=ger"]),
        ], fileName: "tracks.mka").make(in: directory.url)
        let result = try await transcodeAndPlay(clip, in: directory)
        let master = try lines(of: result.masterPlaylist)
        let media = master.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=AUDIO") }
        #expect(media.count == 3)
        #expect(media.filter { $0.contains("DEFAULT=YES") }.map { $0.contains(#"NAME="Français""#) } == [true])
        let variant = try #require(master.firstIndex { $0.hasPrefix("#EXT-X-STREAM-INF:") })
        #expect(master[variant].contains(#"AUDIO="aac""#) && master[variant + 1] == "audio_1/index.m3u8",
                "the variant plays the default track")
    }

    @Test func anMP3WithCoverArtIsAudioOnly() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await AudioOnlyClip(codec: "libmp3lame", fileName: "song.mp3", coverArt: true).make(in: directory.url)
        let probe = try MediaProber.probe(path: clip)
        #expect(probe.video == nil)
        #expect(probe.tracks?.first { $0.type == "video" }?.reason == "cover art, not a video")
        let result = try await transcodeAndPlay(clip, in: directory)
        #expect(result.variants.map(\.name) == ["aac"] && abs(result.duration - 7) < 0.05)
    }

    @Test func aFileWithNeitherPictureNorSoundIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let subtitles = directory.url.appendingPathComponent("lines.srt")
        try "1\n00:00:01,000 --> 00:00:02,000\nHello\n".write(to: subtitles, atomically: true, encoding: .utf8)
        let input = directory.url.appendingPathComponent("lines.mkv").path
        try await ExternalTool.require("ffmpeg", ["-v", "error", "-i", subtitles.path, "-c:s", "srt", input])
        let error = await #expect(throws: MediaError.self) {
            try await Transcoder().transcode(input: input, outputDirectory: directory.url.appendingPathComponent("out").path)
        }
        #expect(error?.reason == "the file has no video stream and no audio track that can be decoded")
        #expect(try directory.entries().sorted() == ["lines.mkv", "lines.srt"])
    }

    private func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
