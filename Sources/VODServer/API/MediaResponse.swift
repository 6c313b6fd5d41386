import Foundation
import Hummingbird
import VODCatalog
import VODEngine

/// The JSON of a media item: the contract's keys, in the contract's order, then the added ones.
///
/// Every key is always present; unknown values are `null`, as the iOS apps' optional fields expect.
/// Written by hand because Foundation's encoder does not keep key order on Linux.
struct MediaResponse: ResponseGenerator {
    let item: MediaItem
    /// The absolute URL of the master playlist.
    let streamURL: String
    /// The row's stored JSON, decoded.
    let stored: StoredJSONCache.Fields

    /// One rendition of a ready item.
    struct Variant {
        let name: String
        let width: Int
        let height: Int
        let bandwidth: Int
        let averageBandwidth: Int
        let codecs: String
        let frameRate: Double
        let playlistURL: String

        /// The JSON object, keys in alphabetical order.
        var json: String {
            var object = OrderedJSONObject()
            object.add("average_bandwidth", averageBandwidth)
            object.add("bandwidth", bandwidth)
            object.add("codecs", codecs)
            object.add("frame_rate", frameRate)
            object.add("height", height)
            object.add("name", name)
            object.add("playlist_url", playlistURL)
            object.add("width", width)
            return object.json
        }
    }

    /// The JSON object, keys in the contract's order: id, title, description, status, hls_path, duration,
    /// "ready?", created_at, updated_at, then progress, error, stream_url, variants, source and tracks (what the
    /// original holds, from the probe at upload), captions (the caption files added since), and playable (the
    /// stream plays, also while the title is still processing), published_at (when it first could) and
    /// processing_seconds (how long the transcode ran), and rung_progress (how far each rung's encoder has come,
    /// in ladder order, from the first progress report on), poster_url and thumbnails (`StillsJSON`; null
    /// until the title is ready with its pictures). `hls_path` is set only once ready, as before.
    var json: String {
        var object = OrderedJSONObject()
        object.add("id", item.id)
        object.add("title", item.title)
        object.add("description", item.description)
        object.add("status", item.status.rawValue)
        object.add("hls_path", item.isReady ? item.hlsPath : nil)
        object.add("duration", item.duration.map { Int($0.rounded()) })
        object.add("ready?", item.isReady)
        object.add("created_at", item.createdAt)
        object.add("updated_at", item.updatedAt)
        object.add("progress", item.progress)
        object.add("error", item.error)
        object.add("stream_url", streamURL)
        object.addRaw("variants", variants.map { "[" + $0.map(\.json).joined(separator: ",") + "]" } ?? "null")
        object.addRaw("source", stored.sourceJSON)
        object.addRaw("tracks", stored.tracksJSON)
        object.addRaw("captions", CaptionResponse.array(item.captions, streamURL: streamURL))
        object.add("playable", item.isPlayable)
        object.add("published_at", item.isPlayable ? item.publishedAt : nil)
        object.add("processing_seconds", item.processingSeconds)
        object.addRaw("rung_progress", item.status == .pending ? "null" : item.rungProgressJSON ?? "null")
        let stills = stored.stills.map { StillsJSON(manifest: $0, mediaURL: mediaURL) }
        object.add("poster_url", stills?.posterURL)
        object.addRaw("thumbnails", stills?.json ?? "null")
        return object.json
    }

    /// The absolute URL of the item, `…/api/media/:id`, of which the stream URL is `…/stream`.
    private var mediaURL: String { String(streamURL.dropLast("/stream".count)) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.jsonResponse(json)
    }

    /// A JSON array of items, newest first as given.
    static func list(_ items: [MediaResponse]) -> Response {
        jsonResponse("[" + items.map(\.json).joined(separator: ",") + "]")
    }

    private static func jsonResponse(_ json: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: json))
        )
    }

    private var variants: [Variant]? {
        guard item.isReady, let summaries = stored.variants else { return nil }
        return summaries.map { summary in
            Variant(
                name: summary.name, width: summary.width, height: summary.height, bandwidth: summary.bandwidth,
                averageBandwidth: summary.averageBandwidth, codecs: summary.codecs, frameRate: summary.frameRate,
                playlistURL: "\(streamURL)/\(summary.playlist)"
            )
        }
    }
}
