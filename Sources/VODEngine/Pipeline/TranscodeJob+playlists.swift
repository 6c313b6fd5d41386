import Foundation
import VODModel

extension TranscodeJob {
    /// Writes the final playlists, with the title's `chapters` (on its timeline) beside the master and its
    /// `closedCaptions` announced in it.
    func writePlaylists(_ renditions: [Rendition], audio: [AlternateRendition], subtitles: [AlternateRendition],
                        chapters: [Chapter], closedCaptions: [ClosedCaptionListing] = []) throws {
        let target = PlaylistWriter.targetDuration(of: renditions, audio: audio)
        try PlaylistSet(renditions: renditions, audio: audio, subtitles: subtitles, targetDuration: target, complete: true,
                        format: options.segmentFormat, chapters: chapters, closedCaptions: closedCaptions)
            .write(to: staging)
    }
}
