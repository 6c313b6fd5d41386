import Foundation

/// One chunk of a split title: the output frames it encodes, on the title's timeline, and everything a worker
/// on any machine needs to encode it exactly as a single transcode of the whole title would.
public struct ChunkSpec: Sendable, Codable, Equatable {
    /// Its place in the title, from 0.
    public var index: Int
    /// The first output frame it encodes: a segment boundary, so an IDR on the title's keyframe grid.
    public var startFrame: Int64
    /// The output frame after its last, which starts the next chunk; nil for the last chunk, which runs to the
    /// end of the source.
    public var endFrame: Int64?
    /// The number of its first segment, so that segment file names run on across chunks.
    public var firstSegment: Int
    /// The source time of the title's first picture, where its timeline starts.
    public var timelineStart: Double
    /// The title's rungs.
    public var rungs: [PlannedRung]
    /// The title's segment container, which every chunk writes whatever its worker's own setting.
    public var segmentFormat: SegmentFormat = .ts
    /// The title's segment durations, which every chunk cuts on whatever its worker's own settings; nil in a
    /// chunk queued before chunks carried them.
    var segmentDurations: SegmentDurations?

    /// Whether the chunk starts the title: the first chunk of the first group of rungs, the only one whose first
    /// segment starts fast (`TranscodeOptions.startsFast`). A later group's first chunk is taken after every
    /// chunk of the first, so its rungs join the master later and need no fast start.
    var startsTitle: Bool { index == 0 }

    /// The chunk's JSON, as the queue stores it.
    public var json: String {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }

    /// A chunk from the JSON the queue stored.
    public init(json: String) throws {
        self = try JSONDecoder().decode(ChunkSpec.self, from: Data(json.utf8))
    }

    init(index: Int, startFrame: Int64, endFrame: Int64?, firstSegment: Int, timelineStart: Double, rungs: [PlannedRung]) {
        self.index = index
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.firstSegment = firstSegment
        self.timelineStart = timelineStart
        self.rungs = rungs
    }
}

/// Where a title is cut into chunks: at segment boundaries, a short first chunk so that the title is out in
/// seconds (the first segment alone when `firstChunkSeconds` is no longer), then chunks of about `chunkSeconds`,
/// the last one running to the end of the source.
struct ChunkPlanner {
    var frameRate: FrameRate
    var segmentDurations: SegmentDurations
    var firstChunkSeconds: Double
    var chunkSeconds: Double

    /// The chunks of a title of about `duration` seconds (the container's word): no chunk but the last starts
    /// within half a chunk of the end, so that the last is never a sliver and never starts past the real end.
    func chunks(duration: Double, timelineStart: Double, rungs: [PlannedRung]) -> [ChunkSpec] {
        var schedule = SegmentSchedule(frameRate: frameRate, durations: segmentDurations)
        var chunks: [ChunkSpec] = []
        var start: (frame: Int64, time: Double, segment: Int) = (0, 0, 0)
        var segments = 0
        while true {
            let boundary = schedule.nextBoundary()
            segments += 1
            if boundary > duration - chunkSeconds / 2 { break }
            let wanted = chunks.isEmpty ? firstChunkSeconds : chunkSeconds
            guard boundary - start.time >= wanted - 0.001 else { continue }
            chunks.append(ChunkSpec(index: chunks.count, startFrame: start.frame, endFrame: schedule.boundaryFrame,
                                    firstSegment: start.segment, timelineStart: timelineStart, rungs: rungs))
            start = (schedule.boundaryFrame, boundary, start.segment + segments)
            segments = 0
        }
        chunks.append(ChunkSpec(index: chunks.count, startFrame: start.frame, endFrame: nil, firstSegment: start.segment,
                                timelineStart: timelineStart, rungs: rungs))
        return chunks
    }
}
