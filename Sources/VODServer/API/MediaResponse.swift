import Foundation
import Hummingbird
import VODCatalog
import VODEngine
import VODModel

/// The JSON of a media item: the contract's keys, in the contract's order, then the added ones.
///
/// Every key is always present; unknown values are `null`, as the iOS apps' optional fields expect.
/// Written by hand because Foundation's encoder does not keep key order on Linux, and fast; every key is named
/// by `VODModel.Media.CodingKeys`, the type clients decode it with.
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
        let rateControl: String?
        let crf: Double?
        let videoRange: String?

        /// The JSON object, keys in alphabetical order.
        var json: String {
            typealias Key = Media.Variant.CodingKeys
            var object = OrderedJSONObject()
            object.add(Key.averageBandwidth, averageBandwidth)
            object.add(Key.bandwidth, bandwidth)
            object.add(Key.codecs, codecs)
            object.add(Key.crf, crf)
            object.add(Key.frameRate, frameRate)
            object.add(Key.height, height)
            object.add(Key.name, name)
            object.add(Key.playlistURL, playlistURL)
            object.add(Key.rateControl, rateControl)
            object.add(Key.videoRange, videoRange)
            object.add(Key.width, width)
            return object.json
        }
    }

    /// The JSON object, keys in the contract's order: id, title, description, status, hls_path, duration,
    /// "ready?", created_at, updated_at, then progress, error, stream_url, variants, source and tracks (what the
    /// original holds, from the probe at upload), captions (the caption files added since), and playable (the
    /// stream plays, also while the title is still processing), published_at (when it first could) and
    /// processing_seconds (how long the transcode ran), and rung_progress (how far each rung's encoder has come,
    /// in ladder order, from the first progress report on), poster_url and thumbnails (`StillsJSON`; null
    /// until the title is ready with its pictures), chapters (the original's, from the probe at upload), and
    /// visibility (`public` or `private`), segment_format (`ts` or `fmp4`, chosen at upload) and dash_url (the DASH
    /// manifest of a ready fMP4 title, else null).
    /// `hls_path` is set only once ready, as before.
    var json: String {
        typealias Key = Media.CodingKeys
        var object = OrderedJSONObject()
        object.add(Key.id, item.id)
        object.add(Key.title, item.title)
        object.add(Key.description, item.description)
        object.add(Key.status, item.status.rawValue)
        object.add(Key.hlsPath, item.isReady ? item.hlsPath : nil)
        object.add(Key.duration, item.duration.map { Int($0.rounded()) })
        object.add(Key.isReady, item.isReady)
        object.add(Key.createdAt, item.createdAt)
        object.add(Key.updatedAt, item.updatedAt)
        object.add(Key.progress, item.progress)
        object.add(Key.error, item.error)
        object.add(Key.streamURL, streamURL)
        object.addRaw(Key.variants, variants.map { "[" + $0.map(\.json).joined(separator: ",") + "]" } ?? "null")
        object.addRaw(Key.source, stored.sourceJSON)
        object.addRaw(Key.tracks, stored.tracksJSON)
        object.addRaw(Key.captions, CaptionResponse.array(item.captions, streamURL: streamURL))
        object.add(Key.isPlayable, item.isPlayable)
        object.add(Key.publishedAt, item.isPlayable ? item.publishedAt : nil)
        object.add(Key.processingSeconds, item.processingSeconds)
        object.addRaw(Key.rungProgress, item.status == .pending ? "null" : item.rungProgressJSON ?? "null")
        let stills = stored.stills.map { StillsJSON(manifest: $0, mediaURL: mediaURL) }
        object.add(Key.posterURL, stills?.posterURL)
        object.addRaw(Key.thumbnails, stills?.json ?? "null")
        object.addRaw(Key.chapters, stored.chaptersJSON)
        object.add(Key.visibility, item.visibility.rawValue)
        object.add(Key.segmentFormat, item.segmentFormat.rawValue)
        object.add(Key.dashURL, item.isReady && item.segmentFormat == .fmp4 ? "\(mediaURL)/manifest.mpd" : nil)
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
                playlistURL: "\(streamURL)/\(summary.playlist)", rateControl: summary.rateControl?.rawValue, crf: summary.crf,
                // A title transcoded before variants said their range is SDR: no earlier title kept HDR.
                videoRange: summary.videoRange ?? (summary.width > 0 ? "SDR" : nil)
            )
        }
    }
}
