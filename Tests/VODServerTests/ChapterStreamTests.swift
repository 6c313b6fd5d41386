import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer

/// A title's chapters reach players through its stream: the master's `#EXT-X-SESSION-DATA` names them under the
/// stream URL, and the file is served as JSON.
@Suite(.timeLimit(.minutes(2))) struct ChapterStreamTests {
    @Test func theMasterNamesTheChaptersServedAsJSON() async throws {
        let test = try TestLibrary()
        let item = try await test.addReady()
        let folder = try #require(item.hlsPath)
        let master = try String(contentsOfFile: "\(folder)/master.m3u8", encoding: .utf8).replacingOccurrences(
            of: "#EXT-X-INDEPENDENT-SEGMENTS\n",
            with: "#EXT-X-INDEPENDENT-SEGMENTS\n" + #"#EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.chapters",URI="chapters.json""# + "\n")
        try Data(master.utf8).write(to: URL(fileURLWithPath: "\(folder)/master.m3u8"))
        let chapters = #"[{"chapter":1,"duration":1320.2,"start-time":0,"titles":[{"language":"und","title":"Cold open"}]}]"#
        try Data(chapters.utf8).write(to: URL(fileURLWithPath: "\(folder)/chapters.json"))
        try await test.app().test(.router) { client in
            let served = try await client.execute(uri: "/api/media/\(item.id)/stream", method: .get)
            #expect(served.body.text.contains(#"#EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.chapters",URI="stream/chapters.json""#))
            let file = try await client.execute(uri: "/api/media/\(item.id)/stream/chapters.json", method: .get)
            #expect(file.status == .ok && file.headers[.contentType] == "application/json")
            #expect(file.body.text == chapters)
        }
    }
}
