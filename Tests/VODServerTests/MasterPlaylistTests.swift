import Testing
@testable import VODServer

@Suite(.timeLimit(.minutes(2))) struct MasterPlaylistTests {
    @Test func prefixesRelativeURIsAndLeavesAbsoluteOnesAlone() {
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1
            720p/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2
            https://cdn.example/1080p/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=3
            /elsewhere/index.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=4,URI="720p/iframes.m3u8",CODECS="avc1.64001f"

            """
        #expect(
            MasterPlaylist.rewritingURIs(master, prefix: "stream/") == """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=1
                stream/720p/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=2
                https://cdn.example/1080p/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=3
                /elsewhere/index.m3u8
                #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=4,URI="stream/720p/iframes.m3u8",CODECS="avc1.64001f"

                """
        )
    }
}
