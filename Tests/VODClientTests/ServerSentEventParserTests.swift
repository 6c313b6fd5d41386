import Testing
@testable import VODClient

/// The Server-Sent Events parser reads a stream however it is cut into chunks, with any of the three line ends.
@Suite(.timeLimit(.minutes(2))) struct ServerSentEventParserTests {
    static let stream = "retry: 2000\n\n: keep-alive\n\nid: 7\nevent: media.created\ndata: {\"id\":7,\ndata:\"x\":\"a:b\"}\n\n"
        + "data: carried id\n\nid: 8\nevent: media.ready\ndata:no space\n\nid: 9\ndata: unfinished"

    static let expected = [
        ServerSentEvent(id: "7", type: "media.created", data: "{\"id\":7,\n\"x\":\"a:b\"}"),
        ServerSentEvent(id: "7", type: "message", data: "carried id"),
        ServerSentEvent(id: "8", type: "media.ready", data: "no space"),
    ]

    @Test(arguments: ["\n", "\r\n", "\r"])
    func messagesAreTheSameWhereverTheStreamIsCut(lineEnd: String) {
        let bytes = Array(Self.stream.replacingOccurrences(of: "\n", with: lineEnd).utf8)
        for cut in 0...bytes.count {
            var parser = ServerSentEventParser()
            parser.append(bytes[..<cut])
            parser.append(bytes[cut...])
            var messages: [ServerSentEvent] = []
            while let message = parser.next() { messages.append(message) }
            #expect(messages == Self.expected, "cut at \(cut)")
            #expect(parser.retry == 2000)
        }
    }
}
