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

    /// One rendition of a ready item.
    struct Variant: Encodable {
        let name: String
        let width: Int
        let height: Int
        let bandwidth: Int
        let averageBandwidth: Int
        let codecs: String
        let frameRate: Double
        let playlistURL: String

        enum CodingKeys: String, CodingKey {
            case name, width, height, bandwidth, codecs
            case averageBandwidth = "average_bandwidth"
            case frameRate = "frame_rate"
            case playlistURL = "playlist_url"
        }
    }

    /// The JSON object, keys in the contract's order: id, title, description, status, hls_path, duration,
    /// "ready?", created_at, updated_at, then progress, error, stream_url, variants and source.
    func json() throws -> String {
        var object = OrderedJSONObject()
        try object.add("id", item.id)
        try object.add("title", item.title)
        try object.add("description", item.description)
        try object.add("status", item.status.rawValue)
        try object.add("hls_path", item.hlsPath)
        try object.add("duration", item.duration.map { Int($0.rounded()) })
        try object.add("ready?", item.isReady)
        try object.add("created_at", item.createdAt)
        try object.add("updated_at", item.updatedAt)
        try object.add("progress", item.progress)
        try object.add("error", item.error)
        try object.add("stream_url", streamURL)
        try object.add("variants", variants)
        try object.add("source", source)
        return object.text
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Self.jsonResponse(json())
    }

    /// A JSON array of items, newest first as given.
    static func list(_ items: [MediaResponse]) throws -> Response {
        try jsonResponse("[" + items.map { try $0.json() }.joined(separator: ",") + "]")
    }

    private static func jsonResponse(_ json: String) throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: json))
        )
    }

    /// What the original holds, from the probe at upload: codec, size, HDR, interlacing and so on.
    private var source: SourceSummary? {
        guard let json = item.probeJSON,
            let probe = try? JSONDecoder().decode(MediaProbe.self, from: Data(json.utf8))
        else { return nil }
        return probe.source ?? SourceSummary(probe)
    }

    private var variants: [Variant]? {
        guard item.isReady, let json = item.variantsJSON,
            let summaries = try? JSONDecoder().decode([VariantSummary].self, from: Data(json.utf8))
        else { return nil }
        return summaries.map { summary in
            Variant(
                name: summary.name, width: summary.width, height: summary.height, bandwidth: summary.bandwidth,
                averageBandwidth: summary.averageBandwidth, codecs: summary.codecs, frameRate: summary.frameRate,
                playlistURL: "\(streamURL)/\(summary.playlist)"
            )
        }
    }
}
