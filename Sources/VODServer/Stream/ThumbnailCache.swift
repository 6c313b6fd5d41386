import Foundation
import Synchronization
import VODEngine

/// Thumbnails rendered lately, held in memory up to `capacity` bytes, the least recently used out first.
/// Keyed by the title's folder (a retried title gets a new one) and what the thumbnail shows (its keyframe and
/// size, `Thumbnail.Snapped`), so that every request snapped to the same picture shares one entry.
final class ThumbnailCache: Sendable {
    struct Key: Hashable, Sendable {
        var folder: String
        var snapped: Thumbnail.Snapped
    }

    private struct Entry: Sendable {
        var file: StreamFile
        var used: UInt64
    }

    private struct State: Sendable {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most bytes of JPEG kept.
    let capacity: Int

    init(capacity: Int = 32 << 20) {
        self.capacity = capacity
    }

    /// The cached thumbnail for `key`, marked as just used.
    func file(for key: Key) -> StreamFile? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[key] = entry
            return entry.file
        }
    }

    /// Drops the thumbnails of the title in `folder`.
    func forget(folder: String) {
        state.withLock { state in
            for (key, entry) in state.entries where key.folder == folder {
                state.entries[key] = nil
                state.bytes -= entry.file.size
            }
        }
    }

    /// Keeps `file` for `key`, dropping the least recently used thumbnails beyond `capacity`.
    func store(_ file: StreamFile, for key: Key) {
        guard file.size <= capacity else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(file: file, used: state.clock), forKey: key) {
                state.bytes -= old.file.size
            }
            state.bytes += file.size
            while state.bytes > capacity, let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.file.size
            }
        }
    }
}
