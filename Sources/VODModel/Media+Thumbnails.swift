import Foundation

extension Media {
    /// The pictures of a ready title: its posters, its storyboard and the endpoint of its thumbnails.
    public struct Thumbnails: Codable, Sendable, Equatable {
        /// One size of the poster.
        public struct Poster: Codable, Sendable, Equatable {
            /// Its height in pixels.
            public var height: Int
            /// The JPEG file.
            public var url: URL
            /// Its width in pixels.
            public var width: Int

            /// The keys of a poster, in the order the server writes them.
            public enum CodingKeys: String, CodingKey, CaseIterable {
                case height, url, width
            }
        }

        /// The posters, narrowest first.
        public var posters: [Poster]
        /// The WebVTT file of the storyboard's tiles, for players' scrub previews.
        public var storyboardURL: URL
        /// The picture at any time: add `?time=` (seconds) and `&width=` (pixels).
        public var thumbnailURL: URL

        /// The keys of `thumbnails`, in the order the server writes them.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case posters
            case storyboardURL = "storyboard_url"
            case thumbnailURL = "thumbnail_url"
        }
    }
}
