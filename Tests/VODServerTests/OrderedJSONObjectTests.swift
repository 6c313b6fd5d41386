import Foundation
import Testing
import VODModel
@testable import VODServer
import VODTestSupport

/// The hand-written JSON of media items says exactly what `JSONEncoder` would say, key order aside.
@Suite(.timeLimit(.minutes(2))) struct OrderedJSONObjectTests {
    @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
        var generator = SeededGenerator(seed: 20261123)
        let alphabet: [Character] = ["a", "é", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}",
                                     "🎬", " ", "\u{8}", "\u{C}", "<", "&"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for _ in 0..<2000 {
            let string = generator.string(from: alphabet, count: Int.random(in: 0...12, using: &generator))
            #expect(OrderedJSONObject.quoted(string) == String(decoding: try encoder.encode(string), as: UTF8.self))
        }
    }

    @Test(arguments: [0, 1, 0.225, 0.9125, 1320.2, 1319.6, -3, 1e-7, 123456789.125, 1e20])
    func numbersAreWrittenAsJSONEncoderWritesThem(value: Double) throws {
        let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(OrderedJSONObject.number(value) == encoded)
        #expect(try JSONDecoder().decode(Double.self, from: Data(OrderedJSONObject.number(value).utf8)) == value)
    }

    @Test func keysKeepTheirOrder() throws {
        var object = OrderedJSONObject()
        object.add("z", "last first")
        object.add("a", nil as Int?)
        object.add("ready?", true)
        object.add("count", 2)
        object.addRaw("raw", "{\"k\":1}")
        #expect(object.json == #"{"z":"last first","a":null,"ready?":true,"count":2,"raw":{"k":1}}"#)
    }
}
