import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

@Suite(.timeLimit(.minutes(2))) struct PlaylistParsingTests {
    static let master = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=900000,AVERAGE-BANDWIDTH=800000,RESOLUTION=1280x720,FRAME-RATE=29.970,CODECS="avc1.64001f,mp4a.40.2"
        720p/index.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=1280x720,CODECS="avc1.64001f",URI="720p/iframes.m3u8"

        """

    static let media = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:6.006,
        #EXT-X-BYTERANGE:1000@0
        all.ts
        #EXTINF:5.5,title
        #EXT-X-BYTERANGE:2000
        all.ts
        #EXT-X-ENDLIST

        """

    @Test func parsesMasterVariantsAndIFrameStreams() throws {
        guard case .master(let master) = try HLSPlaylist.parse(Data(Self.master.utf8)) else {
            Issue.record("not parsed as a master playlist")
            return
        }
        #expect(master.issues == [])
        #expect(master.version == 4)
        #expect(master.independentSegments)
        let variant = try #require(master.variants.first)
        #expect(variant.uri == "720p/index.m3u8")
        #expect(variant.bandwidth == 900_000)
        #expect(variant.averageBandwidth == 800_000)
        #expect(variant.resolution == Resolution(width: 1280, height: 720))
        #expect(variant.frameRate == 29.97)
        #expect(variant.codecs == ["avc1.64001f", "mp4a.40.2"])
        let iFrames = try #require(master.iFrameStreams.first)
        #expect(iFrames.uri == "720p/iframes.m3u8")
        #expect(iFrames.codecs == ["avc1.64001f"])
    }

    @Test func parsesMediaSegmentsAndResolvesImpliedByteRangeOffsets() throws {
        guard case .media(let media) = try HLSPlaylist.parse(Data(Self.media.utf8)) else {
            Issue.record("not parsed as a media playlist")
            return
        }
        #expect(media.issues == [])
        #expect(media.targetDuration == 6)
        #expect(media.playlistType == "VOD")
        #expect(media.mediaSequence == 0)
        #expect(media.endListCount == 1)
        #expect(media.segments.map(\.duration) == [6.006, 5.5])
        #expect(media.segments.map(\.byteRange) == [ByteRange(length: 1000, offset: 0), ByteRange(length: 2000, offset: 1000)])
        #expect(abs(media.totalDuration - 11.506) < 1e-9)
    }

    @Test func reportsByteOrderMarkAndMissingHeader() throws {
        let withMark = try HLSPlaylist.parse(Data([0xEF, 0xBB, 0xBF] + Array(Self.media.utf8)))
        #expect(withMark.issues.map(\.kind) == [.byteOrderMark])
        let headless = try HLSPlaylist.parse(Data(Self.media.replacingOccurrences(of: "#EXTM3U\n", with: "").utf8))
        #expect(headless.issues.map(\.kind) == [.missingHeader])
    }

    @Test func nonIntegerTargetDurationIsKeptAsText() throws {
        guard case .media(let media) = try HLSPlaylist.parse(Data(Self.media.replacingOccurrences(of: "TARGETDURATION:6", with: "TARGETDURATION:6.5").utf8)) else {
            Issue.record("not parsed as a media playlist")
            return
        }
        #expect(media.targetDuration == nil)
        #expect(media.targetDurationText == "6.5")
    }

    @Test func invalidUTF8Throws() {
        #expect(throws: ConformanceError.self) { try HLSPlaylist.parse(Data([0x23, 0x45, 0xFF, 0xFE, 0x0A])) }
    }

    @Test(arguments: [
        "", "\n\n", "#EXTM3U\n#EXTINF:\nx.ts", "#EXTM3U\n#EXTINF:nan,\nx.ts", "#EXTM3U\n#EXTINF:-1,\nx.ts",
        "#EXTM3U\n#EXTINF:1e400,\nx.ts", "#EXTM3U\n#EXT-X-BYTERANGE:@\n#EXTINF:1,\nx.ts",
        "#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\nx.ts",
        "#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:99999999999999999999999\nx.ts", "#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:5\nx.ts",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\"unterminated\n", "#EXTM3U\n#EXT-X-STREAM-INF:=,=,,\nv.m3u8",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,BANDWIDTH=2\n#EXT-X-STREAM-INF\n", "#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:URI=\"a\"x,B\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=x,FRAME-RATE=inf,CODECS=\",,\"\nv", "#EXTM3U\r\n#EXT-X-TARGETDURATION:\r\n#EXT-X-VERSION:x",
        "#EXTM3U\n#EXT-X-MAP:URI\n#EXT-X-MEDIA-SEQUENCE:-3\nurl-without-extinf",
    ])
    func malformedPlaylistsGiveIssuesNotCrashes(text: String) throws {
        let playlist = try HLSPlaylist.parse(Data(text.utf8))
        #expect(!playlist.issues.isEmpty)
    }

    /// Thousands of random byte edits of valid playlists: parsing must return or throw, never trap.
    @Test func randomlyMutatedPlaylistsNeverCrash() {
        var generator = SeededGenerator(seed: 0x5EED)
        let alphabet = Array("#EXT-X-:=,\"@x0123456789.\n\r ".utf8) + [0xFF, 0xEF, 0xBB, 0xBF]
        for base in [Self.master, Self.media] {
            let original = Array(base.utf8)
            for _ in 0..<1500 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = alphabet.randomElement(using: &generator)!
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(alphabet.randomElement(using: &generator)!, at: index)
                    }
                    if bytes.isEmpty { bytes = [0x23] }
                }
                _ = try? HLSPlaylist.parse(Data(bytes))
            }
        }
    }
}
