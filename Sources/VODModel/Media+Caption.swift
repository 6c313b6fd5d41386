import Foundation

extension Media {
    /// A caption file added to a ready item, and where players and people fetch it.
    public struct Caption: Codable, Sendable, Equatable, Identifiable {
        /// The caption's id, unique on the server.
        public var id: Int64
        /// The item it belongs to.
        public var mediaID: Int64
        /// The RFC 5646 language tag, such as `fr` or `pt-BR`.
        public var language: String
        /// The NAME the master gives it, unique among the item's subtitles.
        public var name: String
        /// Whether players show it when subtitles are on and the viewer has not picked one.
        public var isDefault: Bool
        /// When it was added, in the form of `Media.createdAt`.
        public var createdAt: String
        /// The whole WebVTT file.
        public var url: URL
        /// Its media playlist, of WebVTT segments.
        public var playlistURL: URL

        /// The keys of a caption, in the order the server writes them.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case createdAt = "created_at"
            case isDefault = "default"
            case id, language
            case mediaID = "media_id"
            case name
            case playlistURL = "playlist_url"
            case url
        }
    }
}
