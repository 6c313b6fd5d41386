import Foundation
import VODFFmpeg

/// A picture of a finished title at any time, rendered on demand from its renditions.
public enum Thumbnail {
    /// A rendered thumbnail: JPEG bytes and the picture's size.
    public struct Rendered: Sendable, Equatable {
        public var jpeg: Data
        public var width: Int
        public var height: Int
    }

    /// The picture shown `time` seconds into the title in `titleFolder`, `width` wide (capped at the largest
    /// rendition's width, so never upscaled) with the rendition's aspect ratio, as JPEG; nil for an audio-only
    /// title. It is decoded from the smallest rendition at least `width` wide, from the last keyframe at or
    /// before `time`. Blocking: run it off the cooperative pool.
    public static func render(titleFolder: URL, time: Double, width: Int,
                              cancellation: CancellationFlag = CancellationFlag()) throws -> Rendered? {
        guard let rendition = try RenditionIndex(folder: titleFolder).rendition(atLeast: width) else { return nil }
        let frame = try picture(of: rendition, at: time, keyframesOnly: false, cancellation: cancellation)
        let size = StillSize(width: width, sourceWidth: rendition.width, sourceHeight: rendition.height)
        return Rendered(jpeg: try size.jpeg(from: frame), width: size.width, height: size.height)
    }

    /// The keyframe of `rendition` nearest at or before `time`, decoding keyframes only.
    static func keyframe(of rendition: RenditionIndex.Rendition, at time: Double, cancellation: CancellationFlag) throws -> Frame {
        try picture(of: rendition, at: time, keyframesOnly: true, cancellation: cancellation)
    }

    /// The last picture of `rendition` showing at `time` (the first of its segment when `time` falls before
    /// it), decoded from the last keyframe at or before `time` in the segment holding it.
    private static func picture(of rendition: RenditionIndex.Rendition, at time: Double, keyframesOnly: Bool,
                                cancellation: CancellationFlag) throws -> Frame {
        guard let segment = rendition.segment(at: time) else { throw MediaError.invalid("the rendition has no segment") }
        let offset = time - segment.start
        var chosen: Frame?
        try SegmentDecoder.decode(segment.path, keyframesOnly: keyframesOnly, from: offset, cancellation: cancellation) { frame, seconds in
            guard chosen == nil || seconds <= offset + 0.001 else { return false }
            chosen = try frame.reference()
            return seconds <= offset + 0.001
        }
        guard let chosen else { throw MediaError.invalid("segment \(segment.path) holds no picture") }
        return chosen
    }
}
