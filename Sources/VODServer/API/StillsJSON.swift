import VODEngine
import VODModel

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
            typealias Key = Media.Thumbnails.Poster.CodingKeys
            var object = OrderedJSONObject()
            object.add(Key.height, poster.height)
            object.add(Key.url, "\(mediaURL)/\(StillsManifest.folder)/\(poster.file)")
            object.add(Key.width, poster.width)
            return object.json
        }
        typealias Key = Media.Thumbnails.CodingKeys
        var object = OrderedJSONObject()
        object.addRaw(Key.posters, "[" + posters.joined(separator: ",") + "]")
        object.add(Key.storyboardURL, "\(mediaURL)/\(StillsManifest.folder)/\(StillsManifest.storyboardFile)")
        object.add(Key.thumbnailURL, "\(mediaURL)/thumbnail.jpg")
        return object.json
    }
}
