import Foundation
import Synchronization
import VODCatalog
import VODEngine
import VODService

/// The parts of a media row that the catalog keeps as JSON (the probe's `source` summary, the variants), and
/// the stills manifest of a ready title's folder, decoded once per version of the row and kept: a list of
/// thousands of items then decodes nothing again. The stills are written before the row turns ready.
///
/// A row's `updated_at` changes whenever those columns do, so an entry is looked up by id and `updated_at`.
final class StoredJSONCache: Sendable {
    /// A row's stored JSON, decoded; the source summary already encoded, as it does not depend on the request.
    struct Fields: Sendable {
        var sourceJSON: String
        /// The track list, already encoded; `null` for rows probed before tracks were listed.
        var tracksJSON: String
        /// The chapters, already encoded; `null` for rows probed before chapters were read.
        var chaptersJSON: String
        var variants: [VariantSummary]?
        /// What the title's `stills/stills.json` says, once ready; nil before, and for titles without stills.
        var stills: StillsManifest?
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
        let summaries = Self.summaries(of: item)
        let fields = Fields(sourceJSON: summaries.source, tracksJSON: summaries.tracks, chaptersJSON: Self.chapters(of: item),
                            variants: Self.variants(item.variantsJSON),
                            stills: item.isReady ? item.hlsPath.flatMap { StillsManifest.read(titleFolder: URL(fileURLWithPath: $0, isDirectory: true)) } : nil)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = fields
        }
        return fields
    }

    /// The probe's `source` and `tracks` alone, which is all a row made by this version needs decoding.
    private struct StoredSummary: Decodable {
        var source: SourceSummary?
        var tracks: [TrackListing]?
    }

    /// The encoded `source` and `tracks` of `item`: as stored at upload, or, for rows stored before that, decoded
    /// from the probe and encoded now.
    private static func summaries(of item: MediaItem) -> (source: String, tracks: String) {
        if let source = item.sourceSummaryJSON, let tracks = item.tracksJSON { return (source, tracks) }
        let probe = item.probeJSON.map { Data($0.utf8) }
        let summary = probe.flatMap { try? JSONDecoder().decode(StoredSummary.self, from: $0) }
        let source = summary?.source ?? probe.flatMap { try? JSONDecoder().decode(MediaProbe.self, from: $0) }.flatMap(SourceSummary.init)
        return (source.map(MediaLibrary.storedJSON) ?? "null", summary?.tracks.map(MediaLibrary.storedJSON) ?? "null")
    }

    /// The probe's `chapters` alone.
    private struct StoredChapters: Decodable {
        var chapters: [Chapter]?
    }

    /// The encoded `chapters` of `item`'s probe; `null` when it has none stored.
    private static func chapters(of item: MediaItem) -> String {
        let chapters = item.probeJSON.flatMap { try? JSONDecoder().decode(StoredChapters.self, from: Data($0.utf8)) }?.chapters
        return chapters.map(MediaLibrary.storedJSON) ?? "null"
    }

    /// The variants column, read as a flat array when it is one (as this service writes it), else decoded.
    private static func variants(_ json: String?) -> [VariantSummary]? {
        guard let json else { return nil }
        if let objects = FlatJSONArray.objects(in: json) {
            let variants = objects.compactMap(VariantSummary.init(flat:))
            if variants.count == objects.count { return variants }
        }
        return try? JSONDecoder().decode([VariantSummary].self, from: Data(json.utf8))
    }
}
