import Foundation

extension MediaLibrary {
    private static var storedJSONEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as ingest stores it in a catalog row and the media JSON embeds it: compact, keys sorted, slashes
    /// unescaped; `null` if it cannot be encoded.
    package static func storedJSON(_ value: some Encodable) -> String {
        (try? storedJSONEncoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
