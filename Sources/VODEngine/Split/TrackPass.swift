import Foundation
import Synchronization
import VODFFmpeg

/// The audio and subtitle tracks of a split title, read in one pass without its pictures: every audio track
/// becomes audio-only renditions cut on the title's segment schedule, and subtitle cues are kept for the end.
final class TrackPass: @unchecked Sendable {
    /// The audio renditions, their segments empty.
    let descriptions: [AlternateRendition]
    private let job: TranscodeJob
    private let source: SourceStage
    private let writers: [AudioRenditionWriter]
    /// The segments each encoding has closed so far.
    private let closed: ClosedSegments
    /// Whether `run` has returned.
    private let read = Atomic<Bool>(false)
    /// The audio and subtitle renditions, once `finish` has closed them.
    private let finished = Mutex<(audio: [AlternateRendition], subtitles: [AlternateRendition])?>(nil)

    /// Segments closed on the pass's thread and read by the coordinator's.
    private final class ClosedSegments: Sendable {
        let segments: Mutex<[[Segment]]>

        init(encodings: Int) {
            segments = Mutex([[Segment]](repeating: [], count: encodings))
        }
    }

    init(job: TranscodeJob, timelineStart: Double) throws {
        self.job = job
        let file = try MediaProber.open(path: job.input, cancellation: job.cancellation)
        source = try SourceStage(input: file, options: job.options, window: .tracks(timelineStart: timelineStart))
        descriptions = job.describeAudio(of: source)
        let closed = ClosedSegments(encodings: source.audioEncodings.count)
        self.closed = closed
        writers = try job.makeAudioWriters(source, publish: { index, segment in
            closed.segments.withLock { $0[index].append(segment) }
        })
    }

    /// Reads the whole source: blocking, for a thread of its own.
    func run() throws {
        _ = try source.run(video: { _, _ in }, audio: { try self.writers[$0].add($1) }, progress: { _ in })
        read.store(true, ordering: .releasing)
    }

    /// Whether `run` has returned, so that `finish` may close the renditions.
    var isRead: Bool { read.load(ordering: .acquiring) }

    /// Every track of the source, each audio track with its loudness once `run` has returned, and the video with
    /// the channels of the `closedCaptions` its chunks' pictures carry.
    func listings(closedCaptions: ClosedCaptionTrack) -> [TrackListing] {
        source.trackListings(closedCaptions: closedCaptions)
    }

    /// The master's announcements of the channels of the `closedCaptions` the chunks' pictures carry.
    func closedCaptionListings(of closedCaptions: ClosedCaptionTrack) -> [ClosedCaptionListing] {
        source.closedCaptionListings(of: closedCaptions)
    }

    /// How many segments every audio rendition has closed; nil when there is no audio.
    var closedSegments: Int? {
        closed.segments.withLock { $0.map(\.count).min() }
    }

    /// The audio renditions with their first `count` segments.
    func audio(listing count: Int) -> [AlternateRendition] {
        let segments = closed.segments.withLock { $0 }
        return descriptions.map { rendition in
            var rendition = rendition
            rendition.segments = Array(segments[rendition.index].prefix(count))
            return rendition
        }
    }

    /// Closes the audio renditions at the title's end, `duration` (their sound fitted to it), and cuts the subtitles, the chunks'
    /// `closedCaptions` among them, on `videoSegments`; only once `run` has returned. The first call does it (as
    /// soon as the first rungs are done, so that their last segment is published with the audio's); later ones
    /// return what it did.
    func finish(duration: Double, videoSegments: [Segment], closedCaptions: ClosedCaptionTrack) throws
        -> (audio: [AlternateRendition], subtitles: [AlternateRendition]) {
        try finished.withLock { finished in
            if let finished { return finished }
            // The sound fitted to the title's end, as one transcode of the whole fits it: AAC's padding past the last
            // picture cut, a track that stops short filled with silence.
            try source.closeAudio(at: duration) { try writers[$0].add($1) }
            let audio = try job.finish(descriptions, writers: writers, duration: duration)
            let done = (audio, try job.subtitleRenditions(of: source, closedCaptions: closedCaptions, videoSegments: videoSegments,
                                                          duration: duration))
            finished = done
            return done
        }
    }
}
