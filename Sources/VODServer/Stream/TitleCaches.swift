/// What this node keeps in memory about titles: their stream files (folders, playlists, captions, stills, and
/// the bytes of recent segments) and their thumbnails. `forget` drops a title from all of them at once.
struct TitleCaches: Sendable {
    let streamFiles: StreamFiles
    /// Thumbnails rendered lately.
    let thumbnails = ThumbnailCache()
    /// The renditions and keyframes of titles asked for thumbnails lately.
    let thumbnailSources = ThumbnailSources()

    /// Forgets everything kept about title `id`, whose output folder is `folder`, so that the next request for
    /// it asks the catalog again.
    func forget(id: Int64, folder: String?) {
        streamFiles.forget(id: id)
        guard let folder else { return }
        thumbnails.forget(folder: folder)
        thumbnailSources.forget(folder: folder)
    }
}
