import Foundation
import Hummingbird
import VODCatalog
import VODEngine

/// The JSON of a media item: the contract's keys, in the contract's order, then the added ones.
///
/// Every key is always present; unknown values are `null`, as the iOS apps' optional fields expect.
struct MediaResponse: ResponseEncodable {
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

    enum CodingKeys: String, CodingKey {
        case id, title, description, status
        case hlsPath = "hls_path"
        case duration
        case ready = "ready?"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case progress, error
        case streamURL = "stream_url"
        case variants
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(item.id, forKey: .id)
        try container.encode(item.title, forKey: .title)
        try container.encode(item.description, forKey: .description)
        try container.encode(item.status.rawValue, forKey: .status)
        try container.encode(item.hlsPath, forKey: .hlsPath)
        try container.encode(item.duration.map { Int($0.rounded()) }, forKey: .duration)
        try container.encode(item.isReady, forKey: .ready)
        try container.encode(item.createdAt, forKey: .createdAt)
        try container.encode(item.updatedAt, forKey: .updatedAt)
        try container.encode(item.progress, forKey: .progress)
        try container.encode(item.error, forKey: .error)
        try container.encode(streamURL, forKey: .streamURL)
        try container.encode(variants, forKey: .variants)
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
