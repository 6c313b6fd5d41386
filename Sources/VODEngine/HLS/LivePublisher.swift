import Foundation
import Synchronization

/// Publishes a title, or a chunk of a split title, while it is being transcoded: each time every rendition
/// (each rung, each audio rendition) has closed one more segment, it hands `write` the renditions cut to the
/// segments all of them have. For a title (`playlists`) that rewrites the EVENT playlists, then the master,
/// whose bandwidths are measured on those segments, so a player can start as soon as the first segment of every
/// rendition exists, and segment k is listed in every rendition at once. For a chunk it records its progress,
/// which the title's coordinator publishes.
///
/// Subtitles are added by the final, complete playlists: their cues are known only once the source is read.
final class LivePublisher: Sendable {
    /// Writes a publication: the renditions and the audio renditions, each with the `segments` all of them have.
    typealias Write = @Sendable (_ renditions: [Rendition], _ audio: [AlternateRendition], _ segments: Int) throws -> Void

    private struct State {
        var rungs: [String: Rendition] = [:]
        var audio: [AlternateRendition]
        var published = 0
    }

    private let rungOrder: [String]
    private let write: Write
    private let state: Mutex<State>

    /// Publishes the rungs of `plan` and the audio renditions `audio` (their segments empty) through `write`.
    init(plan: [PlannedRung], audio: [AlternateRendition], write: @escaping Write) {
        rungOrder = plan.map(\.name)
        self.write = write
        state = Mutex(State(audio: audio))
    }

    /// Writes the EVENT playlists of a title into `folder`, then tells `onPublish` of the publication, playable
    /// once its `pace` stays ahead of a player.
    static func playlists(folder: URL, segmentDuration: Double, format: SegmentFormat, pace: PublicationPace,
                          onPublish: @escaping @Sendable (Publication) -> Void) -> Write {
        let minimumTargetDuration = max(Int(segmentDuration.rounded()), 1)
        let pace = Mutex(pace)
        return { renditions, audio, segments in
            let target = max(PlaylistWriter.targetDuration(of: renditions, audio: audio), minimumTargetDuration)
            try PlaylistSet(renditions: renditions, audio: audio, subtitles: [], targetDuration: target, complete: false,
                            format: format)
                .write(to: folder)
            onPublish(pace.withLock { $0.publication(of: segments) })
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

    /// Records a change, then publishes when every rendition has more segments than were published, before any
    /// other change is recorded, so that `write` sees the folder as published.
    private func publishing(_ change: (inout State) -> Void) throws {
        try state.withLock { state in
            change(&state)
            let counts = rungOrder.map { state.rungs[$0]?.segments.count ?? 0 } + state.audio.map(\.segments.count)
            guard let ready = counts.min(), ready > state.published else { return }
            let renditions = rungOrder.compactMap { state.rungs[$0] }.map { $0.prefix(ready) }
            let audio = state.audio.map { rendition in
                var rendition = rendition
                rendition.segments = Array(rendition.segments.prefix(ready))
                return rendition
            }
            try write(renditions, audio, ready)
            state.published = ready
        }
    }
}
