import Foundation

extension TranscodeJob {
    /// Writes each text subtitle track as WebVTT on the video's segment boundaries, its cues moved onto the
    /// title's timeline, and after them the CEA-608 channel of the pictures' `captions` that `cc_dec` read.
    func subtitleRenditions(of source: SourceStage, closedCaptions captions: ClosedCaptionTrack?, videoSegments: [Segment],
                            duration: Double) throws -> [AlternateRendition] {
        let defaultTrack = source.subtitleTracks.firstIndex { $0.isDefault }
        let tracks = try source.subtitleTracks.enumerated().map { index, track in
            let cues = track.cues.compactMap { cue -> SubtitleCue? in
                let start = max(cue.start - source.timelineStart, 0)
                let end = min(cue.end - source.timelineStart, duration)
                return end > start ? SubtitleCue(start: start, end: end, text: cue.text) : nil
            }
            let directory = staging.appendingPathComponent(AlternateRendition.folder(.subtitles, index))
            return AlternateRendition(kind: .subtitles, index: index, name: track.name, language: track.language,
                                      isDefault: index == defaultTrack, isForced: track.isForced,
                                      segments: try WebVTTWriter.write(cues, videoSegments: videoSegments, to: directory))
        }
        guard let captions, let channel = source.closedCaptionListings(of: captions).first(where: \.hasWebVTT) else {
            return tracks
        }
        let cues = captions.cues.compactMap { cue in
            cue.start < duration ? SubtitleCue(start: cue.start, end: min(cue.end, duration), text: cue.text) : nil
        }
        let index = tracks.count
        let directory = staging.appendingPathComponent(AlternateRendition.folder(.subtitles, index))
        return tracks + [AlternateRendition(kind: .subtitles, index: index, name: channel.rendition, language: channel.language,
                                            isDefault: false, segments: try WebVTTWriter.write(cues, videoSegments: videoSegments, to: directory))]
    }
}
