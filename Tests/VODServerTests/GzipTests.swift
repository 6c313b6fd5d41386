import Foundation
import Hummingbird
import Testing
import VODTestSupport
@testable import VODServer

@Suite(.tags(.processes), .needsExternalTools, .timeLimit(.minutes(2))) struct GzipTests {
    @Test(arguments: [0, 1, 2, 3, 100, 70_000])
    func roundTripsThroughDebiansGzip(_ count: Int) async throws {
        var generator = SystemRandomNumberGenerator()
        let text = (0..<count).map { index in
            index % 97 == 0 ? "\n" : String(UnicodeScalar(UInt8.random(in: 97...100, using: &generator)))
        }.joined()
        let compressed = try Gzip.compress(Array(text.utf8))
        #expect(try await Gunzip.text(of: ByteBuffer(bytes: compressed)) == text)
    }

    @Test func playlistsShrink() async throws {
        let playlist = (0..<500).map { "#EXTINF:6.000,\nsegment_\(String(format: "%03d", $0)).ts\n" }.joined()
        let compressed = try Gzip.compress(Array(playlist.utf8))
        #expect(compressed.count * 5 < playlist.utf8.count)
        #expect(try await Gunzip.text(of: ByteBuffer(bytes: compressed)) == playlist)
    }
}
