import Foundation
import NIOPosix
import Synchronization
import VODCatalog

/// Finds the files of playable items' renditions and keeps what it learned: a ready item's renditions never
/// change, so its folder, its playlists and the metadata of its segments are cached in memory, and the bytes
/// of its recently served segments in `segments`. The files of an item still processing are read afresh each
/// time (`StreamFile.isLive`).
///
/// Only files inside the item's own output folder are served: path components are checked against a strict
/// pattern and the resolved real path, symlinks followed, must still lie inside that folder.
final class StreamFiles: Sendable {
    /// Beyond this many cached files the cache starts afresh.
    private static let maximumCachedFiles = 100_000

    private let catalog: any MediaCatalog
    private let roots = Mutex<[Int64: String]>([:])
    private let files = Mutex<[String: StreamFile]>([:])
    /// The bytes of recently served segments.
    let segments: SegmentCache

    /// Serves the renditions of `catalog`'s ready items, holding up to `segmentCacheSize` bytes of segments
    /// in memory.
    init(catalog: any MediaCatalog, segmentCacheSize: Int) {
        self.catalog = catalog
        segments = SegmentCache(capacity: segmentCacheSize)
    }

    /// The master playlist of item `id`, its URIs rewritten to resolve from `/api/media/:id/stream`.
    func master(id: Int64) async throws -> StreamFile {
        let (root, isLive) = try await root(for: id)
        return try await cached("\(id)/", isLive: isLive) {
            let playlist = try StreamFiles.load(inside: root, relative: "master.m3u8", rewrite: true)
            guard let playlist else { throw APIError.notReady }
            return playlist
        }
    }

    /// The file at `components` below the stream of item `id`, such as `["720p", "segment_001.ts"]`.
    func file(id: Int64, components: [Substring]) async throws -> StreamFile {
        let relative = components.joined(separator: "/")
        guard StreamFiles.isSafe(components) else { throw APIError.segmentNotFound(relative) }
        let (root, isLive) = try await root(for: id)
        return try await cached("\(id)/\(relative)", isLive: isLive) {
            guard let file = try StreamFiles.load(inside: root, relative: relative, rewrite: false) else {
                throw APIError.segmentNotFound(relative)
            }
            return file
        }
    }

    /// Forgets item `id`, deleted or no longer ready.
    func forget(id: Int64) {
        if let root = roots.withLock({ $0.removeValue(forKey: id) }) { segments.forget(prefix: root + "/") }
        files.withLock { files in files = files.filter { !$0.key.hasPrefix("\(id)/") } }
    }

    /// The real path of a playable item's output folder, and whether the item is still processing (live);
    /// `Media not found` or `Media not ready for streaming` otherwise. Only ready items' folders are kept.
    private func root(for id: Int64) async throws -> (path: String, isLive: Bool) {
        if let root = roots.withLock({ $0[id] }) { return (root, false) }
        guard let item = try await catalog.media(id: id) else { throw APIError.mediaNotFound }
        guard item.isPlayable, let hlsPath = item.hlsPath, let root = StreamFiles.realPath(hlsPath) else {
            throw APIError.notReady
        }
        if item.isReady { roots.withLock { $0[id] = root } }
        return (root, !item.isReady)
    }

    private func cached(_ key: String, isLive: Bool, load: @escaping @Sendable () throws -> StreamFile) async throws -> StreamFile {
        if isLive {
            var file = try await NIOThreadPool.singleton.runIfActive(load)
            file.isLive = true
            return file
        }
        if let file = files.withLock({ $0[key] }) { return file }
        let file = try await NIOThreadPool.singleton.runIfActive(load)
        files.withLock { files in
            if files.count >= StreamFiles.maximumCachedFiles { files.removeAll() }
            files[key] = file
        }
        return file
    }

    /// Components made only of letters, digits, `_`, `-` and `.`, none starting with a dot, at most three deep.
    static func isSafe(_ components: [Substring]) -> Bool {
        (1...3).contains(components.count)
            && components.allSatisfy { component in
                component.first != "." && component.count <= 128
                    && component.utf8.allSatisfy { byte in
                        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a)
                            || byte == 0x5f || byte == 0x2d || byte == 0x2e
                    }
            }
    }

    /// Reads the metadata (and, for playlists, the bytes) of `relative` inside `root`; nil when it is missing,
    /// of a type not served, or resolves outside `root`.
    private static func load(inside root: String, relative: String, rewrite: Bool) throws -> StreamFile? {
        let ext = (relative as NSString).pathExtension.lowercased()
        guard let contentType = StreamFile.contentTypes[ext], let path = realPath("\(root)/\(relative)"),
            path.hasPrefix(root + "/")
        else { return nil }
        guard let status = FileStatus(path: path), status.isRegularFile else { return nil }
        let size = Int(status.size)
        let modified = status.modified
        guard ext == "m3u8" else { return StreamFile(path: path, size: size, contentType: contentType, modified: modified) }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let playlist = rewrite ? MasterPlaylist.rewritingURIs(text, prefix: "stream/") : text
        return try StreamFile(playlist: Array(playlist.utf8), contentType: contentType, modified: modified)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
