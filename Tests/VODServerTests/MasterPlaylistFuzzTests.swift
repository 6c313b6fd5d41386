import Foundation
import Testing
@testable import VODServer
import VODConformance
import VODTestSupport

/// Property tests of the master playlist's URI rewriting: for random playlists, every URI of the rewritten
/// master, resolved from `/api/media/:id/stream` as a player does, names what the original URI names from
/// the folder the master was written in; every other line is unchanged.
@Suite(.timeLimit(.minutes(2))) struct MasterPlaylistFuzzTests {
    static let stream = URL(string: "http://vod.example/api/media/7/stream")!
    static let folder = URL(string: "http://vod.example/api/media/7/stream/")!

    static func randomURI(_ generator: inout SeededGenerator) -> String {
        let segment = { (generator: inout SeededGenerator) in
            generator.string(from: Array("abcxyz0189_-.~"), count: Int.random(in: 1...10, using: &generator))
        }
        let path = (0..<Int.random(in: 1...3, using: &generator)).map { _ in segment(&generator) }.joined(separator: "/")
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: return "/" + path
        case 1: return "https://cdn.example/" + path
        case 2: return "../" + path
        case 3: return "./" + path
        case 4: return path + "?token=" + segment(&generator)
        case 5: return "data:application/vnd.apple.mpegurl;base64,I0VYVE0zVQ=="
        case 6: return "skd://key-" + segment(&generator)
        case 7: return "//cdn.example/" + path
        default: return path + "/index.m3u8"
        }
    }

    static func randomMaster(_ generator: inout SeededGenerator) -> (text: String, uris: [String]) {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
        var uris: [String] = []
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            let uri = randomURI(&generator)
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(Int.random(in: 1...9_999_999, using: &generator)),CODECS=\"avc1.64001f,mp4a.40.2\"")
            lines.append(uri)
            uris.append(uri)
            if Bool.random(using: &generator) { lines.append("") }
        }
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            let uri = randomURI(&generator)
            lines.append("#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,CODECS=\"avc1.64001f\",URI=\"\(uri)\"")
            uris.append(uri)
        }
        return (lines.joined(separator: "\n") + "\n", uris)
    }

    /// URIs as the conformance parser reads them, variants then I-frame streams.
    static func uris(of text: String) throws -> [String] {
        guard case .master(let master) = try HLSPlaylist.parse(Data(text.utf8)) else { return [] }
        return master.variants.compactMap(\.uri) + master.iFrameStreams.compactMap { $0.attributes["URI"] }
    }

    @Test func rewrittenURIsResolveFromTheStreamURLToWhereTheOriginalsPoint() throws {
        var generator = FuzzRun.generator(seed: 0x3A57_E4)
        for _ in 0..<FuzzRun.cases(3000) {
            let master = Self.randomMaster(&generator)
            let rewritten = VODServer.MasterPlaylist.rewritingURIs(master.text, prefix: "stream/")
            let parsedOriginal = try Self.uris(of: master.text)
            let parsed = try Self.uris(of: rewritten)
            #expect(parsedOriginal == master.uris)
            #expect(parsed.count == master.uris.count)
            for (original, uri) in zip(master.uris, parsed) {
                let expected = URL(string: original, relativeTo: Self.folder)?.absoluteURL.standardized
                let actual = URL(string: uri, relativeTo: Self.stream)?.absoluteURL.standardized
                #expect(actual == expected, "\(original) became \(uri)")
            }
            let originalLines = master.text.split(separator: "\n", omittingEmptySubsequences: false)
            let rewrittenLines = rewritten.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(originalLines.count == rewrittenLines.count)
            for (before, after) in zip(originalLines, rewrittenLines) where before.hasPrefix("#") && !before.contains("URI=") {
                #expect(before == after)
            }
        }
    }

    /// Found by the property above: absolute URIs whose scheme is not followed by `//` (`data:`) were
    /// prefixed as if they were relative paths.
    @Test func absoluteURIsOfAnySchemeAreLeftAlone() {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\ndata:application/vnd.apple.mpegurl;base64,I0VYVE0zVQ==\n"
            + "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI=\"urn:x-vod:1\"\n#EXT-X-STREAM-INF:BANDWIDTH=2\n720p/index.m3u8\n"
        #expect(
            VODServer.MasterPlaylist.rewritingURIs(master, prefix: "stream/")
                == "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\ndata:application/vnd.apple.mpegurl;base64,I0VYVE0zVQ==\n"
                + "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI=\"urn:x-vod:1\"\n#EXT-X-STREAM-INF:BANDWIDTH=2\nstream/720p/index.m3u8\n"
        )
    }
}
