import Foundation
import NIOPosix
import Synchronization
import VODCatalog
import VODService

/// Finds the files of playable items' renditions and keeps what it learned: a ready item's renditions never
/// change, so its folder, its playlists and the metadata of its segments are cached in memory, and the bytes
/// of its recently served segments in `segments`, for the requests the route answers (`SegmentCache`).
///
/// A title still processing (live) grows: its files are cached too, with the status of their path when read,
/// and served again only while the path still has it. Each publication replaces a playlist by a rename, which
/// gives the path a new inode, so a request costs one `lstat` and never a stale playlist. What the catalog says
/// of a live title (it may turn ready, fail or be deleted, on this node or another) is trusted for
/// `liveStateLifetime`, which keeps the catalog off the path of each request.
///
/// A private title's files are never answered without waiting (`immediateFile`): its requests go to the route,
/// which checks their playback token first. Nor are those of a title served encrypted, which the route
/// encrypts. Its visibility and key are what the catalog said when its folder was looked up, and `forget` makes
/// the next request ask again.
///
/// Only files inside the item's own output folder are served: path components are checked against a strict
/// pattern and the resolved real path, symlinks followed, must still lie inside that folder.
final class StreamFiles: Sendable {
    /// Beyond this many cached files the cache starts afresh.
    private static let maximumCachedFiles = 100_000
    /// How long what the catalog said about a live title is trusted before it is asked again.
    static let liveStateLifetime: Duration = .seconds(1)

    /// A playable item's real output folder, whether the item was still processing, its visibility, its
    /// segments' key when they are served encrypted, and when the catalog said so.
    private struct Root: Sendable {
        let path: String
        let isLive: Bool
        let visibility: MediaVisibility
        let key: [UInt8]?
        let checked: ContinuousClock.Instant

        /// Whether what the catalog said still stands at `now`: for good when ready, for `liveStateLifetime` when live.
        func stands(at now: ContinuousClock.Instant) -> Bool {
            !isLive || now - checked < StreamFiles.liveStateLifetime
        }
    }

    /// A file as it was read: from which folder, and the status its real path had then.
    private struct Loaded: Sendable {
        var file: StreamFile
        let root: String
        let path: String
        let status: FileStatus
    }

    private let catalog: any MediaStore & TitleKeyStore
    private let roots = Mutex<[Int64: Root]>([:])
    /// How many times a title was forgotten: a look-up that began before a `forget` keeps nothing of what it read.
    private let forgets = Atomic<UInt64>(0)
    private let files = Mutex<[String: Loaded]>([:])
    /// The bytes of recently served segments.
    let segments: SegmentCache

    /// Serves the renditions of `catalog`'s playable items, holding up to `segmentCacheSize` bytes of
    /// segments in memory and counting its hits and misses in `metrics`.
    init(catalog: any MediaStore & TitleKeyStore, segmentCacheSize: Int, metrics: ServiceMetrics = ServiceMetrics()) {
        self.catalog = catalog
        segments = SegmentCache(capacity: segmentCacheSize, metrics: metrics)
    }

    /// The name of the master playlist in an item's folder, served as it is at `stream/master.m3u8` and `stream/`.
    static let masterFile = "master.m3u8"
    /// The name of the DASH manifest in an item's folder.
    static let dashManifestFile = "manifest.mpd"

    /// The master playlist of item `id`, its URIs rewritten to resolve from `/api/media/:id/stream`.
    func master(id: Int64) async throws -> StreamFile {
        try await cached(id: id, relative: Self.masterFile, key: "\(id)/", rewrite: true, missing: .notReady)
    }

    /// The DASH manifest of item `id`, its URLs resolving from `/api/media/:id/manifest.mpd` (`<BaseURL>stream/`).
    func dashManifest(id: Int64) async throws -> StreamFile {
        try await cached(id: id, relative: Self.dashManifestFile, key: "\(id)/manifest.mpd", rewrite: true, missing: .notReady)
    }

    /// The file at `components` below the stream of item `id`, such as `["720p", "segment_001.ts"]`.
    func file(id: Int64, components: [Substring]) async throws -> StreamFile {
        let relative = components.joined(separator: "/")
        guard StreamFiles.isSafe(components) else { throw APIError.segmentNotFound(relative) }
        return try await cached(id: id, relative: relative, key: "\(id)/\(relative)", rewrite: false,
                                missing: .segmentNotFound(relative))
    }

    /// Forgets item `id`, deleted, changed or no longer ready, on this node or another. Its files and segments
    /// are dropped when its folder was known; otherwise no cached file can be served for it anyway.
    func forget(id: Int64) {
        let root = roots.withLock { roots in
            forgets.add(1, ordering: .relaxed)
            return roots.removeValue(forKey: id)
        }
        guard let root else { return }
        segments.forget(prefix: root.path + "/")
        files.withLock { files in files = files.filter { !$0.key.hasPrefix("\(id)/") } }
    }

    /// The file `relative` of item `id`: the cached copy when it still stands, else read afresh (and kept). A
    /// file missing from a live title's folder sends to the catalog at once: the title may have failed, or
    /// passed to another attempt's folder, within the second its state is trusted.
    private func cached(id: Int64, relative: String, key: String, rewrite: Bool, missing: APIError) async throws -> StreamFile {
        let root = try await root(for: id)
        do {
            return try await cached(root: root, relative: relative, key: key, rewrite: rewrite, missing: missing)
        } catch let error as APIError where error == missing && root.isLive {
            roots.withLock { _ = $0.removeValue(forKey: id) }
            let fresh = try await self.root(for: id)
            return try await cached(root: fresh, relative: relative, key: key, rewrite: rewrite, missing: missing)
        }
    }

    /// The file `relative` of item `id` (nil: its master) when it can be answered without waiting: what the
    /// catalog said of the title still stands (ready, or live and said within `liveStateLifetime`), and the file
    /// is cached and, for a live title, unchanged on disk. Nil sends the request the long way.
    func immediateFile(id: Int64, relative: String?) -> StreamFile? {
        guard let root = roots.withLock({ $0[id] }), root.stands(at: .now), root.visibility == .public,
              root.key == nil else { return nil }
        return cachedCopy(key: relative.map { "\(id)/\($0)" } ?? "\(id)/", root: root)
    }

    /// The cached copy of `key`, if it was read from `root` as the title now stands and, for a live title, its
    /// path still has the status it had then.
    private func cachedCopy(key: String, root: Root) -> StreamFile? {
        guard let loaded = files.withLock({ $0[key] }), loaded.root == root.path, loaded.file.isLive == root.isLive,
              !root.isLive || FileStatus(path: loaded.path) == loaded.status else { return nil }
        return loaded.file
    }

    private func cached(root: Root, relative: String, key: String, rewrite: Bool, missing: APIError) async throws -> StreamFile {
        if let file = cachedCopy(key: key, root: root) { return file }
        let folder = root.path
        guard var loaded = try await NIOThreadPool.singleton.runIfActive({
            try StreamFiles.load(inside: folder, relative: relative, rewrite: rewrite)
        }) else { throw missing }
        loaded.file.isLive = root.isLive
        loaded.file.listsRenditions = [Self.masterFile, Self.dashManifestFile].contains(relative)
        files.withLock { files in
            if files.count >= StreamFiles.maximumCachedFiles { files.removeAll() }
            files[key] = loaded
        }
        return loaded.file
    }

    /// The visibility of item `id`: what was said of its folder while that still stands, else the catalog's
    /// (and its folder kept when it is playable); `Media not found` when there is no such item.
    func visibility(of id: Int64) async throws -> MediaVisibility {
        if let known = roots.withLock({ $0[id] }), known.stands(at: .now) { return known.visibility }
        return try await lookUp(id).item.visibility
    }

    /// The key of item `id`'s segments when they are served encrypted, as said with its folder while that still
    /// stands, else the catalog's; nil for a title served in the clear, or not playable.
    func encryptionKey(of id: Int64) async throws -> [UInt8]? {
        if let known = roots.withLock({ $0[id] }), known.stands(at: .now) { return known.key }
        return try await lookUp(id).root?.key
    }

    /// Where a playable item's files are; `Media not found` or `Media not ready for streaming` otherwise. A
    /// ready item's folder is kept for good, a live one's for `liveStateLifetime`.
    private func root(for id: Int64) async throws -> Root {
        if let known = roots.withLock({ $0[id] }), known.stands(at: .now) { return known }
        guard let root = try await lookUp(id).root else { throw APIError.notReady }
        return root
    }

    /// Item `id` as the catalog has it now, and its folder, kept, when it is playable.
    private func lookUp(_ id: Int64) async throws -> (item: MediaItem, root: Root?) {
        let now = ContinuousClock.now
        let (known, forgetsBefore) = roots.withLock { ($0[id], forgets.load(ordering: .relaxed)) }
        // Only a title that was served drops its cached files: forgetting scans the whole cache, which a
        // request for an unknown or pending id must not cost.
        guard let item = try await catalog.media(id: id) else {
            if known != nil { forget(id: id) }
            throw APIError.mediaNotFound
        }
        guard item.isPlayable, let hlsPath = item.hlsPath, let path = StreamFiles.realPath(hlsPath) else {
            if known != nil { forget(id: id) }
            return (item, nil)
        }
        let key = try await catalog.encryptionKey(of: id)
        let root = Root(path: path, isLive: !item.isReady, visibility: item.visibility, key: key, checked: now)
        roots.withLock { roots in
            if forgets.load(ordering: .relaxed) == forgetsBefore { roots[id] = root }
        }
        return (item, root)
    }

    /// At most three components, each `isSafeComponent`.
    static func isSafe(_ components: [Substring]) -> Bool {
        (1...3).contains(components.count) && components.allSatisfy { isSafeComponent($0.utf8) }
    }

    /// A path component of 1 to 128 bytes, made only of letters, digits, `_`, `-` and `.`, not starting with a dot.
    static func isSafeComponent<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first, first != 0x2e, bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a) || byte == 0x5f || byte == 0x2d || byte == 0x2e
        }
    }

    /// Reads the metadata (and, for playlists, the bytes) of `relative` inside `root`; nil when it is missing,
    /// of a type not served, or resolves outside `root`.
    private static func load(inside root: String, relative: String, rewrite: Bool) throws -> Loaded? {
        let ext = (relative as NSString).pathExtension.lowercased()
        guard let contentType = StreamFile.contentTypes[ext], let path = realPath("\(root)/\(relative)"),
            path.hasPrefix(root + "/")
        else { return nil }
        guard let status = FileStatus(path: path), status.isRegularFile else { return nil }
        let loaded = { (file: StreamFile) in Loaded(file: file, root: root, path: path, status: status) }
        guard ext == "m3u8" || ext == "mpd" else {
            return loaded(StreamFile(path: path, size: Int(status.size), contentType: contentType, modified: status.modified))
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let playlist = !rewrite ? text
            : ext == "mpd" ? DashBaseURL.inserting("stream/", into: text) : MasterPlaylist.rewritingURIs(text, prefix: "stream/")
        return loaded(try StreamFile(playlist: Array(playlist.utf8), contentType: contentType, modified: status.modified))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
