import Foundation
import VODFFmpeg

/// A finished title's video renditions and their keyframes, read once from its playlists: what thumbnails are
/// snapped to and rendered from.
public struct ThumbnailSource: Sendable {
    private let index: RenditionIndex

    /// Reads the playlists of `titleFolder` (no segment). Blocking: a few small files.
    public init(titleFolder: URL) throws {
        index = try RenditionIndex(folder: titleFolder)
    }

    /// What a request for `time` seconds at `width` pixels shows: the width rounded up to the next of
    /// `Thumbnail.widths` and capped at the largest rendition's (never upscaled), and the keyframe nearest `time`
    /// in the rendition it is decoded from, the smallest at least that wide. Nil for an audio-only title.
    public func snap(time: Double, width: Int) -> Thumbnail.Snapped? {
        let allowed = Thumbnail.widths.first { $0 >= width } ?? Thumbnail.widths[Thumbnail.widths.count - 1]
        guard let rendition = index.rendition(atLeast: allowed),
              let keyframe = rendition.keyframes.min(by: { abs($0 - time) < abs($1 - time) }) else { return nil }
        let size = StillSize(width: allowed, sourceWidth: rendition.width, sourceHeight: rendition.height)
        return Thumbnail.Snapped(time: keyframe, width: size.width, height: size.height)
    }

    /// The keyframe `snapped` names, at its size, as JPEG: one keyframe decoded on one thread, then scaled and
    /// encoded. Blocking: run it on a thread of its own.
    public func render(_ snapped: Thumbnail.Snapped, cancellation: CancellationFlag = CancellationFlag()) throws -> Thumbnail.Rendered {
        guard let rendition = index.rendition(atLeast: snapped.width) else { throw MediaError.invalid("the title has no picture") }
        // Aimed a quarter of the way to the next keyframe, so that the rounding of the playlists' durations
        // cannot land on the keyframe before.
        let next = rendition.keyframes.first { $0 > snapped.time + 1e-6 } ?? rendition.duration
        let frame = try Thumbnail.keyframe(of: rendition, at: snapped.time + (next - snapped.time) / 4, cancellation: cancellation)
        let size = StillSize(width: snapped.width, sourceWidth: rendition.width, sourceHeight: rendition.height)
        return Thumbnail.Rendered(jpeg: try size.jpeg(from: frame), width: size.width, height: size.height)
    }
}
