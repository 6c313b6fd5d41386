import Hummingbird
import Testing
@testable import VODServer
import VODTestSupport

/// Property tests of the streaming multipart parser: random forms survive any chunking byte for byte, and
/// random damage to valid bodies never traps and never yields more bytes than were fed.
@Suite(.timeLimit(.minutes(2))) struct MultipartParserFuzzTests {
    struct Part: Equatable {
        var name: String
        var fileName: String?
        var content: [UInt8]
    }

    static let boundaryCharacters = Array("abcXYZ0123456789'()+_,-./:=?")
    /// Content made to look like delimiters: CR, LF, dashes and the boundary's own characters.
    static let contentBytes: [UInt8] = Array("\r\n-abcXYZ0".utf8) + [0, 0xFF, 0x80]

    static func randomForm(_ generator: inout SeededGenerator) -> (boundary: String, parts: [Part], body: [UInt8]) {
        let boundary = generator.string(from: boundaryCharacters, count: Int.random(in: 1...70, using: &generator))
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var parts: [Part] = []
        for index in 0..<Int.random(in: 1...4, using: &generator) {
            var content: [UInt8]
            repeat {
                content = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    Bool.random(using: &generator)
                        ? contentBytes.randomElement(using: &generator)!
                        : Array(boundary.utf8).randomElement(using: &generator)!
                }
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    // Almost the delimiter: all of it but its last byte.
                    content += delimiter.dropLast() + [0x21]
                }
            } while (Array("\r\n".utf8) + content + [13]).firstRange(of: delimiter) != nil
            let isFile = Bool.random(using: &generator)
            parts.append(Part(name: isFile ? "file" : "field\(index)", fileName: isFile ? "clip \(index).mp4" : nil, content: content))
        }
        var body = Array(generator.string(from: Array("preamble \r\n-"), count: Int.random(in: 0...20, using: &generator)).utf8)
        if !body.isEmpty { body += Array("\r\n".utf8) }
        for part in parts {
            let disposition = part.fileName.map { "; filename=\"\($0)\"" } ?? ""
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\(disposition)\r\n".utf8)
            body += Array("Content-Type: application/octet-stream\r\n\r\n".utf8) + part.content + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\nepilogue".utf8)
        return (boundary, parts, body)
    }

    /// Feeds `body` in random chunks; returns the parts, and the bytes of part content emitted.
    static func parse(_ body: [UInt8], boundary: String, _ generator: inout SeededGenerator) throws -> (parts: [Part], complete: Bool) {
        var parser = MultipartParser(boundary: boundary)
        var parts: [Part] = []
        var start = 0
        while start < body.count {
            let end = min(body.count, start + Int.random(in: 1...600, using: &generator))
            for event in try parser.feed(ByteBuffer(bytes: body[start..<end])) {
                switch event {
                case .partStart(let name, let fileName): parts.append(Part(name: name, fileName: fileName, content: []))
                case .data(let data): parts[parts.count - 1].content += data.readableBytesView
                case .partEnd: break
                }
            }
            start = end
        }
        return (parts, parser.isComplete)
    }

    @Test func randomFormsParseExactlyWhateverTheChunking() throws {
        var generator = FuzzRun.generator(seed: 0x3A17_1FA7)
        for _ in 0..<FuzzRun.cases(3000) {
            let form = Self.randomForm(&generator)
            let parsed = try Self.parse(form.body, boundary: form.boundary, &generator)
            #expect(parsed.complete)
            #expect(parsed.parts == form.parts, "boundary \(form.boundary)")
        }
    }

    @Test func damagedBodiesNeverTrap() {
        var generator = FuzzRun.generator(seed: 0xDA4A_6ED0)
        var refused = 0
        for _ in 0..<FuzzRun.cases(4000) {
            let form = Self.randomForm(&generator)
            var body = form.body
            for _ in 0..<Int.random(in: 1...6, using: &generator) where !body.isEmpty {
                let index = Int.random(in: 0..<body.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: body[index] = Self.contentBytes.randomElement(using: &generator)!
                case 1: body.remove(at: index)
                case 2: body.insert(contentsOf: Array("\r\n--\(form.boundary)".utf8), at: index)
                default: body.removeSubrange(index..<min(body.count, index + Int.random(in: 1...40, using: &generator)))
                }
            }
            do {
                let parsed = try Self.parse(body, boundary: form.boundary, &generator)
                #expect(parsed.parts.reduce(0) { $0 + $1.content.count } <= body.count)
            } catch is MultipartParser.Malformed {
                refused += 1
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        #expect(refused > 0, "some damage is detected as malformed")
    }

    @Test func randomBytesNeverTrap() {
        var generator = FuzzRun.generator(seed: 0xB17E5)
        for _ in 0..<FuzzRun.cases(3000) {
            let boundary = generator.string(from: Self.boundaryCharacters, count: Int.random(in: 1...8, using: &generator))
            let alphabet = Self.contentBytes + Array("--\(boundary)\":;=Content-Disposition form-data name".utf8)
            let body = (0..<Int.random(in: 0...2000, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? Self.parse(body, boundary: boundary, &generator)
        }
    }
}
