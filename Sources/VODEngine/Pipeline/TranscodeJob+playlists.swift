import Foundation
import VODModel

extension TranscodeJob {
    /// Writes the final playlists, with the title's `chapters` (on its timeline) beside the master.
    func writePlaylists(_ renditions: [Rendition], audio: [AlternateRendition], subtitles: [AlternateRendition],
                        chapters: [Chapter]) throws {
        let target = PlaylistWriter.targetDuration(of: renditions, audio: audio)
        try PlaylistSet(renditions: renditions, audio: audio, subtitles: subtitles, targetDuration: target, complete: true,
                        format: options.segmentFormat, chapters: chapters)
            .write(to: staging)
    }
}
