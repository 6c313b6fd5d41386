import VODEngine

/// The pictures of a ready title in the media JSON:
///
/// - `poster_url`: `…/api/media/:id/poster.jpg`, the largest poster;
/// - `thumbnails`: `{"posters": [{"height", "url", "width"}, …] (narrowest first, none wider than the largest
///   rendition), "storyboard_url": "…/api/media/:id/stills/storyboard.vtt", "thumbnail_url":
///   "…/api/media/:id/thumbnail.jpg"}` (add `?time=` seconds and `&width=`). Keys in alphabetical order.
struct StillsJSON {
    let manifest: StillsManifest
    /// `…/api/media/:id`.
    let mediaURL: String

    var posterURL: String { "\(mediaURL)/\(StillsManifest.posterFile)" }

    var json: String {
        let posters = manifest.posters.map { poster in
            var object = OrderedJSONObject()
            object.add("height", poster.height)
            object.add("url", "\(mediaURL)/\(StillsManifest.folder)/\(poster.file)")
            object.add("width", poster.width)
            return object.json
        }
        var object = OrderedJSONObject()
        object.addRaw("posters", "[" + posters.joined(separator: ",") + "]")
        object.add("storyboard_url", "\(mediaURL)/\(StillsManifest.folder)/\(StillsManifest.storyboardFile)")
        object.add("thumbnail_url", "\(mediaURL)/thumbnail.jpg")
        return object.json
    }
}
