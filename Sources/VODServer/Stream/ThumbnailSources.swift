import Foundation
import Synchronization
import VODEngine

/// The `ThumbnailSource` of titles asked for lately, by folder (a retried title gets a new one), so that a
/// thumbnail's snapping reads no file; at most `capacity` titles, one dropped when a new one comes past it.
final class ThumbnailSources: Sendable {
    private let sources = Mutex<[String: ThumbnailSource]>([:])
    let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The source of the title in `folder`, read by `load` when it is not known.
    func source(folder: String, load: (String) async throws -> ThumbnailSource) async throws -> ThumbnailSource {
        if let known = sources.withLock({ $0[folder] }) { return known }
        let loaded = try await load(folder)
        sources.withLock { sources in
            if sources.count >= capacity, let any = sources.keys.first { sources[any] = nil }
            sources[folder] = loaded
        }
        return loaded
    }

    /// Drops the source of the title in `folder`.
    func forget(folder: String) {
        sources.withLock { _ = $0.removeValue(forKey: folder) }
    }
}
