import Foundation
import Synchronization

/// Publishes a title while it is being transcoded: each time every rendition (each rung, each audio
/// rendition) has closed one more segment, it rewrites the EVENT playlists to list the segments all of them
/// have, then the master, whose bandwidths are measured on those segments. So a player can start as soon as
/// the first segment of every rendition exists, and segment k is listed in every rendition at once.
///
/// Subtitles are added by the final, complete playlists: their cues are known only once the source is read.
final class LivePublisher: Sendable {
    private struct State {
        var rungs: [String: Rendition] = [:]
        var audio: [AlternateRendition]
        var published = 0
    }

    private let folder: URL
    private let rungOrder: [String]
    private let minimumTargetDuration: Int
    private let onPublish: @Sendable (_ segments: Int) -> Void
    private let state: Mutex<State>

    /// Publishes into `folder` the rungs of `plan` and the audio renditions `audio` (their segments empty);
    /// `onPublish` is told how many segments each playlist lists after each publication.
    init(folder: URL, plan: [PlannedRung], audio: [AlternateRendition], segmentDuration: Double,
         onPublish: @escaping @Sendable (_ segments: Int) -> Void) {
        self.folder = folder
        rungOrder = plan.map(\.name)
        minimumTargetDuration = max(Int(segmentDuration.rounded()), 1)
        self.onPublish = onPublish
        state = Mutex(State(audio: audio))
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

    /// Records a change, then publishes when every rendition has more segments than were published, and tells
    /// `onPublish` before any other change is recorded, so that it sees the folder as published.
    private func publishing(_ change: (inout State) -> Void) throws {
        try state.withLock { state in
            change(&state)
            let counts = rungOrder.map { state.rungs[$0]?.segments.count ?? 0 } + state.audio.map(\.segments.count)
            guard let ready = counts.min(), ready > state.published else { return }
            let renditions = rungOrder.compactMap { state.rungs[$0] }.map { Self.prefix($0, ready) }
            let audio = state.audio.map { rendition in
                var rendition = rendition
                rendition.segments = Array(rendition.segments.prefix(ready))
                return rendition
            }
            let target = max(PlaylistWriter.targetDuration(of: renditions, audio: audio), minimumTargetDuration)
            try PlaylistSet(renditions: renditions, audio: audio, subtitles: [], targetDuration: target, complete: false)
                .write(to: folder)
            state.published = ready
            onPublish(ready)
        }
    }

    /// `rendition` with its first `count` segments and their I-frames.
    private static func prefix(_ rendition: Rendition, _ count: Int) -> Rendition {
        var rendition = rendition
        rendition.segments = Array(rendition.segments.prefix(count))
        rendition.iFrames = rendition.iFrames.filter { $0.segmentIndex < count }
        return rendition
    }
}
