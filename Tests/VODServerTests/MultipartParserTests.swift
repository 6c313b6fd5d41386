import Hummingbird
import Testing
@testable import VODServer

@Suite struct MultipartParserTests {
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
}
