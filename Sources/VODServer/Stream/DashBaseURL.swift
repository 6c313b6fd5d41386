/// The `BaseURL` that makes a DASH manifest served beside the stream (`/api/media/:id/manifest.mpd`) resolve its
/// segment templates below the stream (`/api/media/:id/stream/`), as `MasterPlaylist` does for the master.
enum DashBaseURL {
    /// `manifest` with `<BaseURL>base</BaseURL>` as the first element of its MPD.
    static func inserting(_ base: String, into manifest: String) -> String {
        guard let start = manifest.range(of: "<MPD "), let end = manifest[start.upperBound...].firstIndex(of: ">") else {
            return manifest
        }
        let after = manifest.index(after: end)
        return String(manifest[..<after]) + "\n  <BaseURL>\(base)</BaseURL>" + manifest[after...]
    }
}
