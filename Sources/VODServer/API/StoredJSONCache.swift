import Foundation
import Synchronization
import VODCatalog
import VODEngine

/// The parts of a media row that the catalog keeps as JSON (the probe's `source` summary, the variants),
/// decoded once per version of the row and kept: a list of thousands of items then decodes nothing again.
///
/// A row's `updated_at` changes whenever those columns do, so an entry is looked up by id and `updated_at`.
final class StoredJSONCache: Sendable {
    /// A row's stored JSON, decoded; the source summary already encoded, as it does not depend on the request.
    struct Fields: Sendable {
        var sourceJSON: String
        var variants: [VariantSummary]?
    }

    private struct Key: Hashable {
        var id: Int64
        var updatedAt: String
    }

    private let entries = Mutex<[Key: Fields]>([:])
    /// Rows kept at most; past it the cache starts again empty.
    let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    /// The decoded fields of `item`, from the cache or decoded now.
    func fields(of item: MediaItem) -> Fields {
        let key = Key(id: item.id, updatedAt: item.updatedAt)
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let fields = Fields(sourceJSON: Self.sourceJSON(item.probeJSON), variants: Self.variants(item.variantsJSON))
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = fields
        }
        return fields
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The probe's `source` alone, which is all a row made by this version needs decoding.
    private struct StoredSource: Decodable {
        var source: SourceSummary?
    }

    private static func sourceJSON(_ probeJSON: String?) -> String {
        guard let json = probeJSON.map({ Data($0.utf8) }),
            let source = (try? JSONDecoder().decode(StoredSource.self, from: json))?.source
                ?? (try? JSONDecoder().decode(MediaProbe.self, from: json)).flatMap(SourceSummary.init),
            let encoded = try? Self.encoder.encode(source)
        else { return "null" }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func variants(_ json: String?) -> [VariantSummary]? {
        json.flatMap { try? JSONDecoder().decode([VariantSummary].self, from: Data($0.utf8)) }
    }
}
