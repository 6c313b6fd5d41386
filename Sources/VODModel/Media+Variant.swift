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

        /// The keys of a `variants` entry, in the order the server writes them.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case averageBandwidth = "average_bandwidth"
            case bandwidth, codecs
            case frameRate = "frame_rate"
            case height, name
            case playlistURL = "playlist_url"
            case width
        }
    }
}
