import Foundation
import VODFFmpeg

extension TranscodeJob {
    /// The folder, inside the title's, where first segments are encoded again before they are swapped in.
    static let fastStartFolder = "faststart"

    /// Encodes again, at the rung's own preset, the first segment of each rendition that started fast
    /// (`TranscodeOptions.startsFast`, among the `leading` rungs, those that start with the title: the first
    /// publication group), and swaps it in: the fast start leaves nothing behind in a ready title.
    ///
    /// The new segment covers the same frames (the title's first keyframe interval, read again from the source
    /// on the title's timeline, `timelineStart`), starts and ends on the same IDRs, carries the same audio packets
    /// (`firstSegmentAudio`, muxed with `muxedAudio`) and ends each PID's continuity counter where the old one
    /// did, so segment 1 follows it as it followed the old one. In fMP4 its init segment, whose parameter sets are
    /// those of the rung's own preset like every later segment's, replaces the fast one's first, and its fragment
    /// decode times are those of the old segment. Each file is replaced in one rename; the playlists
    /// keep their shape (the segment's duration is the same), and the caller writes them next with the new sizes
    /// and I-frame ranges. Returns `renditions` with their first segment and its I-frames replaced.
    func replaceFastStart(of renditions: [Rendition], leading: [PlannedRung], frameRate: FrameRate, timelineStart: Double,
                          muxedAudio: AudioEncoderStage?) throws -> [Rendition] {
        let firstSegmentName = { [options] (rung: PlannedRung) in options.segmentFormat.carrying(rung.codec).fileName(ofSegment: 0) }
        let started = renditions.filter { rendition in
            options.startsFast(rendition.rung) && leading.contains { $0.name == rendition.rung.name }
                && rendition.segments.first?.fileName == firstSegmentName(rendition.rung)
        }
        guard !started.isEmpty else { return renditions }
        var schedule = SegmentSchedule(frameRate: frameRate, durations: options.segmentDurations)
        _ = schedule.nextBoundary()
        let spec = ChunkSpec(index: 0, startFrame: 0, endFrame: schedule.boundaryFrame, firstSegment: 0,
                             timelineStart: timelineStart, rungs: started.map(\.rung))
        let folder = staging.appendingPathComponent(Self.fastStartFolder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let again = TranscodeJob(input: input, staging: folder, options: options.withoutFastStart, cancellation: cancellation,
                                 progress: { _ in })
        let file = try MediaProber.open(path: input, cancellation: cancellation)
        guard let video = MediaProber.describe(file).video else { throw MediaError.invalid("the file has no picture to encode") }
        let source = try SourceStage(input: file, options: options, window: .chunk(spec))
        let (_, replacements) = try again.encode(spec.rungs, video: video, source: source, muxedAudio: muxedAudio, audioWriters: [],
                                                 publisher: nil, audioLeadIn: firstSegmentAudio)
        return try renditions.map { rendition in
            let firstSegmentName = firstSegmentName(rendition.rung)
            guard let replacement = replacements.first(where: { $0.rung == rendition.rung }),
                  replacement.segments.count == 1, replacement.segments[0].fileName == firstSegmentName else { return rendition }
            let old = staging.appendingPathComponent(rendition.rung.name)
            let new = folder.appendingPathComponent(rendition.rung.name)
            switch options.segmentFormat.carrying(rendition.rung.codec) {
            case .ts:
                try ContinuityCounters.align(new.appendingPathComponent(firstSegmentName),
                                             endingAs: old.appendingPathComponent(firstSegmentName))
            case .fmp4: try Self.replace(SegmentFormat.initSegment, of: rendition, from: new, into: old)
            }
            try Self.replace(firstSegmentName, of: rendition, from: new, into: old)
            var rendition = rendition
            rendition.segments[0].bytes = replacement.segments[0].bytes
            rendition.iFrames = replacement.iFrames + rendition.iFrames.filter { $0.segmentIndex > 0 }
            return rendition
        }
    }

    /// Renames the file `name` of `rendition` from the folder `new` over the one in `old`.
    private static func replace(_ name: String, of rendition: Rendition, from new: URL, into old: URL) throws {
        guard rename(new.appendingPathComponent(name).path, old.appendingPathComponent(name).path) == 0 else {
            throw MediaError.invalid("could not replace \(name) of \(rendition.rung.name): \(String(cString: strerror(errno)))")
        }
    }
}
