import Foundation
import VODModel

/// Every playlist of a title, written into its folder: one media playlist per rendition, an I-frame playlist
/// per rung, and the master; for a complete fMP4 title also its DASH manifest (`DashManifest`). Each file is replaced in one rename, so a player reading while a growing title is
/// published sees the old playlist or the new one, never part of one.
struct PlaylistSet {
    var renditions: [Rendition]
    var audio: [AlternateRendition]
    var subtitles: [AlternateRendition]
    var targetDuration: Int
    /// VOD playlists with `#EXT-X-ENDLIST`; otherwise EVENT playlists of a title still being transcoded.
    var complete: Bool
    /// The title's container (an HEVC rung's is fMP4 whatever it is, `SegmentFormat.carrying`): fMP4 media and
    /// I-frame playlists name their rendition's init segment.
    var format: SegmentFormat
    /// The title's chapters on its timeline, written as `ChapterList.file` and named in the master; the
    /// final playlists carry them.
    var chapters: [Chapter] = []
    /// The CEA-608 channels every rung carries, announced in the master; the final playlists carry them.
    var closedCaptions: [ClosedCaptionListing] = []

    /// Writes the media playlists first and the master last, so every playlist the master names exists.
    func write(to folder: URL) throws {
        for rendition in renditions {
            let directory = folder.appendingPathComponent(rendition.rung.name)
            let map = format.carrying(rendition.rung.codec).map
            try Self.replace(directory.appendingPathComponent(PlaylistWriter.mediaPlaylist),
                             with: PlaylistWriter.media(rendition.segments, targetDuration: targetDuration, complete: complete,
                                                        map: map))
            try Self.replace(directory.appendingPathComponent(PlaylistWriter.iFramePlaylist),
                             with: PlaylistWriter.iFrames(rendition, complete: complete, map: map))
        }
        for rendition in audio + subtitles {
            try Self.replace(folder.appendingPathComponent(rendition.playlist),
                             with: PlaylistWriter.media(rendition.segments, targetDuration: targetDuration, complete: complete,
                                                        map: rendition.kind == .audio ? format.map : nil))
        }
        if !chapters.isEmpty {
            try Self.replace(folder.appendingPathComponent(ChapterList.file), with: try ChapterList.json(chapters))
        }
        let named = !chapters.isEmpty
        let master = renditions.isEmpty
            ? PlaylistWriter.audioOnlyMaster(audio, subtitles: subtitles, targetDuration: targetDuration, chapters: named)
            : PlaylistWriter.master(renditions, audio: audio, subtitles: subtitles, targetDuration: targetDuration, chapters: named,
                                    closedCaptions: closedCaptions)
        if complete && format == .fmp4 {
            let segments = renditions.first?.segments ?? audio.first?.segments ?? []
            try Self.replace(folder.appendingPathComponent(DashManifest.file), with: DashManifest.xml(
                renditions, audio: audio, subtitles: subtitles, duration: segments.map(\.duration).reduce(0, +),
                targetDuration: targetDuration))
        }
        try Self.replace(folder.appendingPathComponent(PlaylistWriter.masterPlaylist), with: master)
    }

    /// Writes `text` beside `url` under a hidden name (never served), then renames it over `url`.
    static func replace(_ url: URL, with text: String) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).new")
        try text.write(to: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
