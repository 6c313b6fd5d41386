import Testing
@testable import VODServer

@Suite(.timeLimit(.minutes(2))) struct RangeRequestTests {
    @Test(arguments: [
        ("bytes=0-0", RangeRequest.partial(0...0)),
        ("bytes=0-", .partial(0...99)),
        ("bytes=99-", .partial(99...99)),
        ("bytes=100-", .unsatisfiable),
        ("bytes=-1", .partial(99...99)),
        ("bytes=-0", .unsatisfiable),
        ("bytes=-500", .partial(0...99)),
        ("bytes=10-5", .whole),
        ("bytes=a-b", .whole),
        ("bytes=1-2, 4-5", .whole),
        ("Bytes=1-2", .partial(1...2)),
        ("lines=1-2", .whole),
    ])
    func interpretsTheRangeHeader(_ header: String, _ expected: RangeRequest) {
        #expect(RangeRequest(header: header, size: 100) == expected)
    }

    @Test func anEmptyFileHasNoSatisfiableRange() {
        #expect(RangeRequest(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(RangeRequest(header: "bytes=-5", size: 0) == .unsatisfiable)
    }
}
