extension Media {
    /// How far one rung's encoder has come.
    public struct RungProgress: Codable, Sendable, Equatable {
        /// The rung's name, such as `720p`.
        public var rung: String
        /// From 0 to 1.
        public var progress: Double
        /// Whether the master served now lists the rung: a rung that cannot yet stay ahead of a player joins
        /// it later. Nil from a server that does not say.
        public var listed: Bool?

        /// The keys of a `rung_progress` entry, in the order the server writes them.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case rung, progress, listed
        }
    }
}
