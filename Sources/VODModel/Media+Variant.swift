import Foundation

extension Media {
    /// One rendition of a ready item, as the master playlist lists it.
    public struct Variant: Codable, Sendable, Equatable {
        /// The rung's name, such as `720p`.
        public var name: String
        /// The picture's width in pixels; 0 for an audio-only title.
        public var width: Int
        /// The picture's height in pixels; 0 for an audio-only title.
        public var height: Int
        /// The measured peak bitrate (BANDWIDTH), in bits per second.
        public var bandwidth: Int
        /// The measured average bitrate (AVERAGE-BANDWIDTH), in bits per second.
        public var averageBandwidth: Int
        /// The RFC 6381 codecs, such as `avc1.64001f,mp4a.40.2`.
        public var codecs: String
        /// Frames per second.
        public var frameRate: Double
        /// The rendition's media playlist.
        public var playlistURL: URL
        /// How the rung spends its bits: `quality` (constant quality, `crf`, capped at the rung's bitrate) or
        /// `fixed` (the rung's bitrate); null for an audio-only title and for titles transcoded before it was told.
        public var rateControl: String?
        /// The x264 CRF the rung was encoded at, chosen per title; null at a fixed bitrate.
        public var crf: Double?
        /// The master's VIDEO-RANGE: `SDR`, or `PQ` or `HLG` for an HDR rendition (HEVC Main10); null for an
        /// audio-only title.
        public var videoRange: String?

        /// The keys of a `variants` entry, in the order the server writes them.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case averageBandwidth = "average_bandwidth"
            case bandwidth, codecs, crf
            case frameRate = "frame_rate"
            case height, name
            case playlistURL = "playlist_url"
            case rateControl = "rate_control"
            case videoRange = "video_range"
            case width
        }

        /// Writes absent values as JSON null, so clients always find every key.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(averageBandwidth, forKey: .averageBandwidth)
            try container.encode(bandwidth, forKey: .bandwidth)
            try container.encode(codecs, forKey: .codecs)
            try container.encode(crf, forKey: .crf)
            try container.encode(frameRate, forKey: .frameRate)
            try container.encode(height, forKey: .height)
            try container.encode(name, forKey: .name)
            try container.encode(playlistURL, forKey: .playlistURL)
            try container.encode(rateControl, forKey: .rateControl)
            try container.encode(videoRange, forKey: .videoRange)
            try container.encode(width, forKey: .width)
        }
    }
}
