import Foundation
import Synchronization
import VODFFmpeg

extension TranscodeJob {
    /// The title's rungs once rate control has set the H.264 ones (`controlled`): their HEVC twins where asked
    /// for, and for an HDR source whose HDR is kept (`TranscodeOptions.keepsHDR`), its HDR rung carrying the
    /// source's light levels.
    func titleRungs(_ controlled: [PlannedRung], file: InputFile) throws -> [PlannedRung] {
        let rungs = LadderPlanner.withTwins(controlled, codecs: options.videoCodecs)
        guard options.keepsHDR, let range = MediaProber.pictureStream(of: file).map(StreamPicture.init)?.hdrTransfer else {
            return rungs
        }
        let levels = range == .pq ? try HDRLightLevels.read(path: input, cancellation: cancellation) : nil
        return LadderPlanner.withHDR(rungs, keeping: range, lightLevels: levels)
    }

    /// The groups a title encodes its rungs in, each from a decode of its own: the SDR rungs, then the HDR rungs,
    /// whose pictures keep the source's HDR (`PictureCorrection.keepsHDR`). One group for an SDR title.
    static func pictureGroups(of plan: [PlannedRung]) -> [[PlannedRung]] {
        let hdr = plan.filter(\.isHDR)
        return hdr.isEmpty ? [plan] : [plan.filter { !$0.isHDR }, hdr]
    }

    /// The groups a title published as it grows encodes its rungs in: the smallest rung first, which the title's
    /// own decode feeds and which makes the title playable, then every other SDR rung, then the HDR rungs, each
    /// group fed by a decode of its own at a lower priority (`encode(_:ladder:…)`), which join the master once
    /// their own publication stays ahead of a player (`LivePublisher`). One group when the ladder has one rung.
    static func publicationGroups(of plan: [PlannedRung]) -> [[PlannedRung]] {
        let groups = pictureGroups(of: plan)
        let sdr = groups[0]
        guard sdr.count > 1,
              let smallest = sdr.indices.min(by: { sdr[$0].width * sdr[$0].height < sdr[$1].width * sdr[$1].height })
        else { return groups }
        return [[sdr[smallest]], sdr.indices.filter { $0 != smallest }.map { sdr[$0] }] + groups.dropFirst()
    }

    /// Encodes the rungs of `groups`: the first from `source`, on this thread, like `encode(_:video:…)`; each
    /// other on a thread of its own at a lower priority (`RungPriority.yieldToLeadingRungs`), from a decode of
    /// its own, so that the first group runs ahead of them instead of waiting for the slowest rung. Each
    /// rung's encoder threads are its share of the whole `ladder`, as in one pipeline. `firstDone` is told the
    /// duration as soon as the first group is done, before the others are waited for. Returns the duration and
    /// the renditions in `ladder`'s order once every group is done; a group's failure stops the others.
    func encode(_ groups: [[PlannedRung]], ladder: [PlannedRung], video: VideoStreamInfo, source: SourceStage,
                muxedAudio: AudioEncoderStage?, audioWriters: [AudioRenditionWriter], publisher: LivePublisher?,
                pendingQuality: PendingQuality?, firstDone: (Double) throws -> Void) throws -> (duration: Double, renditions: [Rendition]) {
        // Without a publisher nobody waits for the first group: every group starts at once.
        if publisher == nil { leadingPlayable.open() }
        let lagging = groups.dropFirst().map { group in
            encodeLagging(group, ladder: ladder, muxesAudio: muxedAudio != nil, publisher: publisher, pendingQuality: pendingQuality)
        }
        let first = Result {
            let encoded = try encode(groups[0], video: video, source: source, muxedAudio: muxedAudio, audioWriters: audioWriters,
                                     publisher: publisher, pendingQuality: pendingQuality, ladder: ladder)
            try firstDone(encoded.duration)
            return encoded
        }
        leadingPlayable.open()
        if case .failure = first { cancellation.cancel() }
        let others = lagging.map { $0.wait() }
        let failures = ([first.map(\.renditions)] + others.map { $0.map(\.renditions) }).compactMap { result -> (any Error)? in
            if case .failure(let error) = result { return error } else { return nil }
        }
        if let failure = failures.first(where: { !Self.isCancellation($0) }) ?? failures.first { throw failure }
        var renditions = try first.get().renditions
        for other in others {
            let (encoded, audio) = try other.get()
            renditions += encoded
            firstSegmentAudio.merge(audio) { own, _ in own }
        }
        return (try first.get().duration, ladder.compactMap { rung in renditions.first { $0.rung.name == rung.name } })
    }

    /// Starts encoding `rungs` on a thread of its own, at a lower priority when the title is published as it
    /// grows, from a decode of its own of the input (keeping its HDR for HDR rungs), each rung muxing the first
    /// audio track when `muxesAudio`; a sibling job of this one, sharing its folder, cancellation and progress. The
    /// rungs do not start fast: they join the master once their pace holds, not at the title's start, and a first
    /// segment encoded fast would only be encoded again at the end.
    private func encodeLagging(_ rungs: [PlannedRung], ladder: [PlannedRung], muxesAudio: Bool, publisher: LivePublisher?,
                               pendingQuality: PendingQuality?) -> LaggingGroup {
        let sibling = TranscodeJob(input: input, staging: staging, options: options.withoutFastStart, cancellation: cancellation,
                                   reporter: progress, onPublish: nil, beforePicture: nil)
        let group = LaggingGroup()
        let thread = Thread { [input, options, cancellation, leadingPlayable] in
            if publisher != nil { RungPriority.yieldToLeadingRungs() }
            leadingPlayable.wait()
            group.finish(Result {
                let file = try MediaProber.open(path: input, cancellation: cancellation)
                guard let video = MediaProber.describe(file).video else { throw MediaError.invalid("the file has no picture to encode") }
                let source = try SourceStage(input: file, options: options, keepsHDR: rungs.contains(where: \.isHDR))
                let (_, renditions) = try sibling.encode(rungs, video: video, source: source,
                                                         muxedAudio: muxesAudio ? source.audioEncodings.first : nil,
                                                         audioWriters: [], publisher: publisher, pendingQuality: pendingQuality,
                                                         ladder: ladder)
                return (renditions, sibling.firstSegmentAudio)
            })
        }
        thread.name = "vod.decode.lagging"
        thread.stackSize = 8 << 20
        thread.start()
        return group
    }

    static func isCancellation(_ error: any Error) -> Bool {
        (error as? FFmpegError)?.isCancellation ?? (error is CancellationError)
    }
}

/// The outcome of a group of rungs encoded on a thread of its own: its renditions and the audio muxed into
/// their first segments, once `wait` returns.
final class LaggingGroup: @unchecked Sendable {
    typealias Outcome = Result<(renditions: [Rendition], firstSegmentAudio: [String: [Packet]]), any Error>

    private let done = DispatchSemaphore(value: 0)
    private var outcome: Outcome?

    /// Called once, on the group's thread, when it stops.
    func finish(_ outcome: Outcome) {
        self.outcome = outcome
        done.signal()
    }

    /// Waits until the group stops.
    func wait() -> Outcome {
        done.wait()
        return outcome!
    }
}
