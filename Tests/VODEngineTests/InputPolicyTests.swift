import Foundation
import Testing
import VODEngine
import VODTestSupport

@Suite("Refusing inputs that are not media", .timeLimit(.minutes(2)))
struct InputPolicyTests {
    struct Disguise: Sendable, CustomTestStringConvertible {
        var label: String
        var contents: String
        var reason: String

        var testDescription: String { label }
    }

    static let disguises: [Disguise] = [
        Disguise(label: "HLS playlist pointing at /etc/passwd",
                 contents: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n",
                 reason: "HLS playlist"),
        Disguise(label: "HLS playlist pointing at a URL",
                 contents: "#EXTM3U\n#EXTINF:10,\nhttp://127.0.0.1:9/secret.ts\n", reason: "HLS playlist"),
        Disguise(label: "ffconcat script", contents: "ffconcat version 1.0\nfile '/etc/passwd'\n", reason: "ffconcat"),
        Disguise(label: "SDP description", contents: "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nm=video 5004 RTP/AVP 96\n",
                 reason: "SDP"),
        Disguise(label: "playlist with a byte-order mark", contents: "\u{FEFF}#EXTM3U\n#EXTINF:1,\n/etc/passwd\n",
                 reason: "HLS playlist"),
        Disguise(label: "plain text", contents: "hello, this is not a video\n", reason: "text"),
    ]

    @Test(arguments: disguises)
    func refusesDisguisedFiles(_ disguise: Disguise) async throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("upload.mp4")
        try Data(disguise.contents.utf8).write(to: input)
        let output = directory.url.appendingPathComponent("out")

        let error = await #expect(throws: MediaError.self) {
            try await Transcoder().transcode(input: input.path, outputDirectory: output.path)
        }
        #expect(error?.isRefusal == true)
        #expect(error?.reason.contains(disguise.reason) == true)
        #expect(try directory.entries() == ["upload.mp4"], "a refused input leaves no output")
        #expect(throws: MediaError.self) { try MediaProber.probe(path: input.path) }
    }

    @Test func refusesStillImagesAndAnimatedWebPInWords() throws {
        let directory = try TemporaryDirectory()
        let riff: [UInt8] = Array("RIFF".utf8) + [0x70, 0x61, 0, 0] + Array("WEBPVP8X".utf8) + [0x0a, 0, 0, 0]
        let cases: [(name: String, bytes: [UInt8], reason: String)] = [
            ("animated.webp", riff + [0x12, 0, 0, 0] + Array("ANIM".utf8), "animated WebP, which the FFmpeg 5.1"),
            ("still.webp", riff + [0x10, 0, 0, 0] + Array("ALPH".utf8), "still WebP image, not a video"),
            ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [0, 1, 2], "JPEG image, or a raw Motion-JPEG stream"),
        ]
        for item in cases {
            let path = directory.url.appendingPathComponent(item.name).path
            try Data(item.bytes + [UInt8](repeating: 0x80, count: 64)).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: MediaError.self) { try MediaProber.probe(path: path) }
            #expect(error?.isRefusal == true && error?.reason.contains(item.reason) == true, "\(item.name): \(error?.reason ?? "")")
            #expect(error?.reason.contains("not a media file FFmpeg can read") == false, "never blames FFmpeg for a choice")
        }
    }

    @Test func refusesAnEmptyFile() async throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("empty.mp4")
        try Data().write(to: input)
        let error = await #expect(throws: MediaError.self) {
            try await Transcoder().transcode(input: input.path, outputDirectory: directory.url.appendingPathComponent("out").path)
        }
        #expect(error?.reason == "the file is empty")
        #expect(try directory.entries() == ["empty.mp4"])
    }

    @Test func refusesRandomBytesWithoutLeavingOutput() async throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("random.mp4")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: input)
        await #expect(throws: (any Error).self) {
            try await Transcoder().transcode(input: input.path, outputDirectory: directory.url.appendingPathComponent("out").path)
        }
        #expect(try directory.entries() == ["random.mp4"])
    }
}
