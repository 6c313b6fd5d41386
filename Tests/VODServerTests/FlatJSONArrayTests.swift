import Foundation
import Testing
import VODEngine
@testable import VODServer

/// The variants column read without `JSONDecoder` gives what `JSONDecoder` gives, and gives up on anything else.
@Suite(.timeLimit(.minutes(2))) struct FlatJSONArrayTests {
    static func randomVariants(_ generator: inout some RandomNumberGenerator) -> [VariantSummary] {
        let names = ["720p", "1080p", "4k", "rung \"b\"", "a\\b", "é/ü", ""]
        return (0..<Int.random(in: 0...4, using: &generator)).map { _ in
            VariantSummary(
                name: names.randomElement(using: &generator)!, width: Int.random(in: 0...7680, using: &generator),
                height: Int.random(in: -1...4320, using: &generator), bandwidth: Int.random(in: 0...Int(Int32.max), using: &generator),
                averageBandwidth: Int.random(in: 0...50_000_000, using: &generator), codecs: "avc1.64001f,mp4a.40.2",
                frameRate: [30, 29.97, 23.976023976023978, 59.94, 1e-3, 25].randomElement(using: &generator)!,
                segmentCount: Int.random(in: 0...10_000, using: &generator), playlist: "\(Int.random(in: 0...9, using: &generator))/index.m3u8"
            )
        }
    }

    @Test func readsWhatTheEncoderWritesAsJSONDecoderDoes() throws {
        var generator = SystemRandomNumberGenerator()
        let formats: [JSONEncoder.OutputFormatting] = [[.sortedKeys], [.sortedKeys, .withoutEscapingSlashes], [.prettyPrinted], []]
        for _ in 0..<500 {
            let variants = Self.randomVariants(&generator)
            let encoder = JSONEncoder()
            encoder.outputFormatting = formats.randomElement()!
            let json = String(decoding: try encoder.encode(variants), as: UTF8.self)
            let objects = try #require(FlatJSONArray.objects(in: json), "\(json)")
            #expect(objects.map(VariantSummary.init(flat:)) == variants, "\(json)")
            #expect(try JSONDecoder().decode([VariantSummary].self, from: Data(json.utf8)) == variants)
        }
    }

    @Test(arguments: [
        #"[{"a":{"b":1}}]"#, #"[{"a":[1]}]"#, #"[{"a":"\u00e9"}]"#, #"[{"a":"\n"}]"#, #"[{"a":1}] x"#, #"[{"a":1},]"#,
        #"[{"a":1}"#, #"{"a":1}"#, #"[{"a" 1}]"#, #"[{"a":"unterminated}]"#, #"[{"a":tru}]"#, "", "[{\"a\":\"\u{1}\"}]",
    ])
    func givesUpOnWhatItDoesNotRead(_ json: String) {
        #expect(FlatJSONArray.objects(in: json) == nil)
    }

    @Test func readsTheEmptyArrayAndEveryKindOfValue() throws {
        #expect(FlatJSONArray.objects(in: " [ ] ")?.isEmpty == true)
        let objects = try #require(FlatJSONArray.objects(in: #"[{"s":"a\/b\"c","n":-1.5e3,"t":true,"f":false,"z":null},{}]"#))
        #expect(objects == [["s": .string("a/b\"c"), "n": .number("-1.5e3"), "t": .bool(true), "f": .bool(false), "z": .null], [:]])
    }
}
