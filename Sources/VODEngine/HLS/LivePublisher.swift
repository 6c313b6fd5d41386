import Foundation
import Synchronization

/// Publishes a title, or a chunk of a split title, while it is being transcoded: each time every rendition of a
/// group of rungs has closed one more segment, it hands `write` the renditions listed so far, each cut to the
/// segments its whole group has. For a title (`playlists`) that rewrites the EVENT playlists, then the master,
/// whose bandwidths are measured on those segments, so a player can start as soon as the first segment of every
/// rendition listed exists, and segment k is listed in every rendition of a group at once. For a chunk it
/// records its progress, which the title's coordinator publishes.
///
/// The rungs come in groups (`RungGroups`): the first, with the audio renditions, makes the title playable;
/// each other group, encoded beside it at a lower priority, joins the master once its own pace stays ahead of a
/// player starting then, or once it is complete.
///
/// Subtitles are added by the final, complete playlists: their cues are known only once the source is read.
final class LivePublisher: Sendable {
    /// Writes a publication: the renditions listed and the audio renditions, each with the segments its group
    /// has; `segments` is how many the first group (and the audio) has.
    typealias Write = @Sendable (_ renditions: [Rendition], _ audio: [AlternateRendition], _ segments: Int) throws -> Void

    private struct State {
        var rungs: [String: Rendition] = [:]
        var audio: [AlternateRendition]
        var groups: RungGroups
    }

    private let rungOrder: [String]
    private let write: Write
    private let onPublish: (@Sendable (Publication) -> Void)?
    private let state: Mutex<State>

    /// Publishes the rungs of `plan`, all in one group, and the audio renditions `audio` (their segments empty)
    /// through `write`, each time all of them have one more segment: the form a chunk's progress takes.
    init(plan: [PlannedRung], audio: [AlternateRendition], write: @escaping Write) {
        rungOrder = plan.map(\.name)
        self.write = write
        onPublish = nil
        state = Mutex(State(audio: audio, groups: RungGroups([plan.map(\.name)], pace: nil)))
    }

    /// Publishes the rungs of `plan` in `groups` (of rung names; the first with the audio renditions `audio`)
    /// through `write`, listing each group other than the first once its `pace` stays ahead of a player, and
    /// tells `onPublish` of each publication: playable once the first group's pace stays ahead.
    init(plan: [PlannedRung], groups: [[String]], audio: [AlternateRendition], pace: PublicationPace, write: @escaping Write,
         onPublish: @escaping @Sendable (Publication) -> Void) {
        rungOrder = plan.map(\.name)
        self.write = write
        self.onPublish = onPublish
        state = Mutex(State(audio: audio, groups: RungGroups(groups, pace: pace)))
    }

    /// Writes the EVENT playlists of a title into `folder`: those of the renditions listed, and the master
    /// naming them.
    static func playlists(folder: URL, segmentDuration: Double, format: SegmentFormat) -> Write {
        let minimumTargetDuration = max(Int(segmentDuration.rounded()), 1)
        return { renditions, audio, _ in
            let target = max(PlaylistWriter.targetDuration(of: renditions, audio: audio), minimumTargetDuration)
            try PlaylistSet(renditions: renditions, audio: audio, subtitles: [], targetDuration: target, complete: false,
                            format: format)
                .write(to: folder)
        }
    }

    /// A rung closed `segment`, holding `iFrames`; `template` describes the rung (its segments are ignored).
    func closed(_ segment: Segment, iFrames: [IFrame], of template: Rendition) throws {
        try publishing { state in
            var rendition = state.rungs[template.rung.name] ?? template
            if state.rungs[template.rung.name] == nil {
                rendition.segments = []
                rendition.iFrames = []
            }
            rendition.segments.append(segment)
            rendition.iFrames += iFrames
            state.rungs[template.rung.name] = rendition
        }
    }

    /// The audio rendition of encoding `index` closed `segment`.
    func closed(_ segment: Segment, ofAudio index: Int) throws {
        try publishing { state in
            guard let position = state.audio.firstIndex(where: { $0.index == index }) else { return }
            state.audio[position].segments.append(segment)
        }
    }

    /// Records a change, then publishes when a group has more segments than were published and is listed (or
    /// is listed from now on), before any other change is recorded, so that `write` sees the folder as
    /// published.
    private func publishing(_ change: (inout State) -> Void) throws {
        try state.withLock { state in
            change(&state)
            let counts = state.groups.groups.enumerated().map { index, group in
                (group.rungs.map { state.rungs[$0]?.segments.count ?? 0 } + (index == 0 ? state.audio.map(\.segments.count) : [])).min() ?? 0
            }
            let (changed, makesPlayable) = state.groups.publish(counts)
            guard changed else { return }
            let renditions = rungOrder.compactMap { name in state.groups.listed(name).flatMap { state.rungs[name]?.prefix($0) } }
            let segments = state.groups.segments
            let audio = state.audio.map { rendition in
                var rendition = rendition
                rendition.segments = Array(rendition.segments.prefix(segments))
                return rendition
            }
            try write(renditions, audio, segments)
            onPublish?(Publication(segments: segments, makesPlayable: makesPlayable, rungs: renditions.map(\.rung.name)))
        }
    }
}
