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
    /// rendition's width, so never upscaled) with the rendition's aspect ratio, as JPEG. It is decoded from the
    /// smallest rendition at least `width` wide, from the last keyframe at or before `time`.
    /// Blocking: run it off the cooperative pool. Throws `MediaError.invalid` for an audio-only title.
    public static func render(titleFolder: URL, time: Double, width: Int,
                              cancellation: CancellationFlag = CancellationFlag()) throws -> Rendered {
        let index = try RenditionIndex(folder: titleFolder)
        guard let rendition = index.rendition(atLeast: width) else { throw MediaError.invalid("the title has no picture") }
        let frame = try picture(of: rendition, at: time, keyframesOnly: false, cancellation: cancellation)
        let size = StillSize(width: width, sourceWidth: rendition.width, sourceHeight: rendition.height)
        return Rendered(jpeg: try size.jpeg(from: frame), width: size.width, height: size.height)
    }

    /// The largest rendition's picture size, which bounds the width of a thumbnail; nil for audio-only titles.
    public static func largestSize(titleFolder: URL) throws -> (width: Int, height: Int)? {
        try RenditionIndex(folder: titleFolder).renditions.last.map { ($0.width, $0.height) }
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
