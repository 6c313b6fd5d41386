import Foundation

/// A media item as the API serves it: the JSON of `GET /api/media/:id`, of each entry of `GET /api/media` and of
/// the `data` of every status event.
///
/// This is the one definition of that JSON. The server writes it by hand, for speed and key order, but takes
/// every key from `CodingKeys`, so a key renamed here is renamed on both sides. Every key is always present;
/// what is not known is `null`.
public struct Media: Codable, Sendable, Equatable, Identifiable {
    /// The item's id, which its URLs carry.
    public var id: Int64
    /// The title shown to people.
    public var title: String
    /// A longer text about the item, when one was given.
    public var description: String?
    /// Where the item is in its life.
    public var status: MediaStatus
    /// The folder of the renditions on the server, once ready.
    public var hlsPath: String?
    /// The duration in whole seconds: probed at upload, measured once transcoded.
    public var duration: Int?
    /// Whether the item is ready (`"ready?"` in the JSON).
    public var isReady: Bool
    /// When the item was added, ISO 8601 UTC with milliseconds such as `2025-10-21T14:11:29.798Z`.
    public var createdAt: String
    /// When the item last changed, in the form of `createdAt`.
    public var updatedAt: String
    /// How far the transcode has come, from 0 to 1.
    public var progress: Double
    /// Why the item failed, in words.
    public var error: String?
    /// The master playlist, for AVPlayer, Safari or ffplay; it plays once `isPlayable`.
    public var streamURL: URL
    /// The renditions of a ready item, as the master lists them.
    public var variants: [Variant]?
    /// What the uploaded file holds; nil for audio-only files.
    public var source: SourceSummary?
    /// Every track of the uploaded file, and what became of it.
    public var tracks: [TrackListing]?
    /// The caption files added to the item, oldest first.
    public var captions: [Caption]
    /// Whether the stream plays: ready, or processing with its first segments out.
    public var isPlayable: Bool
    /// When the stream could first be played, in the form of `createdAt`.
    public var publishedAt: String?
    /// How long the transcode ran, in seconds.
    public var processingSeconds: Double?
    /// How far each rung's encoder has come, in ladder order; nil before the first report and for audio only.
    public var rungProgress: [RungProgress]?
    /// The largest poster picture, once ready with stills.
    public var posterURL: URL?
    /// The posters, the storyboard and the thumbnail endpoint, once ready with stills.
    public var thumbnails: Thumbnails?
    /// The chapters of the uploaded file (Matroska, MP4); empty when it has none, nil for rows probed before
    /// chapters were read.
    public var chapters: [Chapter]?
    /// Who may see and play the item; `public` when a server that predates it leaves it out.
    public var visibility: MediaVisibility = .public
    /// The container of the stream's segments, `ts` or `fmp4`; `ts` when a server that predates it leaves it out.
    public var segmentFormat: SegmentFormat = .ts
    /// The DASH manifest of an fMP4 title once ready (`…/manifest.mpd`); nil for MPEG-TS.
    public var dashURL: URL?

    /// The keys of the media JSON, in the order the server writes them: the client contract's first.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case id, title, description, status
        case hlsPath = "hls_path"
        case duration
        case isReady = "ready?"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case progress, error
        case streamURL = "stream_url"
        case variants, source, tracks, captions
        case isPlayable = "playable"
        case publishedAt = "published_at"
        case processingSeconds = "processing_seconds"
        case rungProgress = "rung_progress"
        case posterURL = "poster_url"
        case thumbnails
        case chapters
        case visibility
        case segmentFormat = "segment_format"
        case dashURL = "dash_url"
    }

    /// Writes every key, absent values as JSON null, as the server does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(status, forKey: .status)
        try container.encode(hlsPath, forKey: .hlsPath)
        try container.encode(duration, forKey: .duration)
        try container.encode(isReady, forKey: .isReady)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(progress, forKey: .progress)
        try container.encode(error, forKey: .error)
        try container.encode(streamURL, forKey: .streamURL)
        try container.encode(variants, forKey: .variants)
        try container.encode(source, forKey: .source)
        try container.encode(tracks, forKey: .tracks)
        try container.encode(captions, forKey: .captions)
        try container.encode(isPlayable, forKey: .isPlayable)
        try container.encode(publishedAt, forKey: .publishedAt)
        try container.encode(processingSeconds, forKey: .processingSeconds)
        try container.encode(rungProgress, forKey: .rungProgress)
        try container.encode(posterURL, forKey: .posterURL)
        try container.encode(thumbnails, forKey: .thumbnails)
        try container.encode(chapters, forKey: .chapters)
        try container.encode(visibility, forKey: .visibility)
        try container.encode(segmentFormat, forKey: .segmentFormat)
        try container.encode(dashURL, forKey: .dashURL)
    }
}
