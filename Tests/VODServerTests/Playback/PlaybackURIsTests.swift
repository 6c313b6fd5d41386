import Testing
@testable import VODServer

/// The token on every URI of the playlists and storyboards a token reads.
@Suite struct PlaybackURIsTests {
    @Test func everyURIOfAPlaylistCarriesTheToken() {
        let master = """
            #EXTM3U
            #EXT-X-SESSION-DATA:DATA-ID="com.example.chapters",URI="stream/chapters.json"
            #EXT-X-SESSION-KEY:METHOD=AES-128,URI="stream/key.bin"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="stream/subs/en/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",SUBTITLES="subs"
            stream/720p/index.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="stream/720p/iframes.m3u8"
            https://cdn.example.com/other.m3u8

            """
        let expected = """
            #EXTM3U
            #EXT-X-SESSION-DATA:DATA-ID="com.example.chapters",URI="stream/chapters.json?token=T.K.N"
            #EXT-X-SESSION-KEY:METHOD=AES-128,URI="stream/key.bin?token=T.K.N"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",URI="stream/subs/en/index.m3u8?token=T.K.N"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",SUBTITLES="subs"
            stream/720p/index.m3u8?token=T.K.N
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="stream/720p/iframes.m3u8?token=T.K.N"
            https://cdn.example.com/other.m3u8

            """
        #expect(PlaybackURIs.playlist(master, token: "T.K.N") == expected)
    }

    @Test func mediaPlaylistsKeepTheirTagsAndOrder() {
        let media = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-KEY:METHOD=AES-128,URI="/api/media/3/key",IV=0x00000000000000000000000000000001
            #EXTINF:6.000,
            segment_000.m4s
            #EXT-X-BYTERANGE:188@0
            #EXTINF:4.000,
            segment_001.m4s?part=1
            #EXT-X-ENDLIST
            """
        let rewritten = PlaybackURIs.playlist(media, token: "abc")
        #expect(rewritten.split(separator: "\n") == [
            "#EXTM3U", "#EXT-X-TARGETDURATION:6", #"#EXT-X-MAP:URI="init.mp4?token=abc""#,
            #"#EXT-X-KEY:METHOD=AES-128,URI="/api/media/3/key?token=abc",IV=0x00000000000000000000000000000001"#,
            "#EXTINF:6.000,", "segment_000.m4s?token=abc", "#EXT-X-BYTERANGE:188@0", "#EXTINF:4.000,",
            "segment_001.m4s?part=1&token=abc", "#EXT-X-ENDLIST",
        ])
    }

    @Test func URIsWithASchemeKeepTheirFormAndFragmentsStayLast() {
        #expect(PlaybackURIs.adding("t", to: "data:text/plain,hi") == "data:text/plain,hi")
        #expect(PlaybackURIs.adding("t", to: "HTTPS://elsewhere.example/a.ts") == "HTTPS://elsewhere.example/a.ts")
        #expect(PlaybackURIs.adding("t", to: "sheet.jpg#xywh=0,0,160,90") == "sheet.jpg?token=t#xywh=0,0,160,90")
    }

    @Test func storyboardPicturesCarryTheToken() {
        let storyboard = """
            WEBVTT

            00:00:00.000 --> 00:00:02.000
            storyboard_0.jpg#xywh=0,0,160,120

            00:00:02.000 --> 00:00:04.000
            storyboard_0.jpg#xywh=160,0,160,120

            """
        let expected = """
            WEBVTT

            00:00:00.000 --> 00:00:02.000
            storyboard_0.jpg?token=t#xywh=0,0,160,120

            00:00:02.000 --> 00:00:04.000
            storyboard_0.jpg?token=t#xywh=160,0,160,120

            """
        #expect(PlaybackURIs.storyboard(storyboard, token: "t") == expected)
    }
}
