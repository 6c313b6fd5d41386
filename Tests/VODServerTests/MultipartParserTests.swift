import Hummingbird
import Testing
import VODTestSupport
@testable import VODServer

@Suite(.timeLimit(.minutes(2))) struct MultipartParserTests {
    static let body = Array(
        """
        preamble\r
        --XyZ\r
        Content-Disposition: form-data; name="title"\r
        \r
        My clip\r
        --XyZ\r
        Content-Disposition: form-data; name="file"; filename="clip one.mp4"\r
        Content-Type: video/mp4\r
        \r
        \r
        --XyNotTheBoundary\r\n\u{0}\u{1}\r
        --XyZ--\r
        epilogue
        """.utf8
    )

    /// Parts and their contents, however the body is split into chunks.
    @Test(arguments: [1, 2, 3, 7, 1000])
    func parsesTheSameWhateverTheChunking(_ chunkSize: Int) throws {
        var parser = MultipartParser(boundary: "XyZ")
        var parts: [(name: String, fileName: String?, content: [UInt8])] = []
        for start in stride(from: 0, to: Self.body.count, by: chunkSize) {
            let chunk = Self.body[start..<min(start + chunkSize, Self.body.count)]
            for event in try parser.feed(ByteBuffer(bytes: chunk)) {
                switch event {
                case .partStart(let name, let fileName): parts.append((name, fileName, []))
                case .data(let data): parts[parts.count - 1].content += data.readableBytesView
                case .partEnd: break
                }
            }
        }
        #expect(parser.isComplete)
        #expect(parts.map(\.name) == ["title", "file"])
        #expect(parts[0].content == Array("My clip".utf8))
        #expect(parts[1].fileName == "clip one.mp4")
        #expect(parts[1].content == Array("\r\n--XyNotTheBoundary\r\n\u{0}\u{1}".utf8))
    }

    @Test func aTruncatedBodyIsIncomplete() throws {
        var parser = MultipartParser(boundary: "XyZ")
        _ = try parser.feed(ByteBuffer(bytes: Self.body.prefix(150)))
        #expect(!parser.isComplete)
    }

    @Test(arguments: [
        ("multipart/form-data; boundary=abc", "abc"),
        ("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"", "a b"),
        ("multipart/mixed; boundary=abc", nil),
        ("multipart/form-data", nil),
        ("video/mp4", nil),
    ])
    func readsTheBoundary(_ contentType: String, _ boundary: String?) {
        #expect(MultipartParser.boundary(fromContentType: contentType) == boundary)
    }

    /// The delimiter search agrees with a plain scan on every kind of haystack: the delimiter at the start, at
    /// the end, after a near miss, absent, longer than the haystack, and random bytes over a tiny alphabet that
    /// makes near misses common.
    @Test func theDelimiterSearchFindsWhatAPlainScanFinds() {
        func plain(_ needle: [UInt8], _ haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
        }
        let delimiter = Array("\r\n--XyZ".utf8)
        let cases: [[UInt8]] = [
            delimiter + Array("rest".utf8), Array("data".utf8) + delimiter, Array("\r\n--Xy\r\n--XyZ!".utf8),
            Array("\r\r\r\n-".utf8), Array("\r\n--X".utf8), [], Array(repeating: 13, count: 100) + delimiter,
        ]
        for haystack in cases {
            #expect(MultipartParser.firstIndex(of: delimiter, in: haystack) == plain(delimiter, haystack), "\(haystack)")
        }
        var random = SeededGenerator(seed: 7)
        let alphabet = Array("\r\n-XyZ".utf8)
        for _ in 0..<2000 {
            let haystack = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let needle = (0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            #expect(MultipartParser.firstIndex(of: needle, in: haystack) == plain(needle, haystack), "\(needle) in \(haystack)")
        }
    }
}
