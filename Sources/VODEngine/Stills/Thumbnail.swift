import Foundation
import VODFFmpeg

/// A picture of a finished title, rendered on demand from its renditions (`ThumbnailSource`): always a keyframe,
/// at one of a few widths, so that nearby requests show, and share, the same picture.
public enum Thumbnail {
    /// The widths thumbnails are rendered at: a width asked for is rounded up to the next of these (to the
    /// largest when wider), then capped at the largest rendition's width.
    public static let widths = [160, 320, 480, 640, 960, 1280, 1920]

    /// What a thumbnail shows: the time of its keyframe on the title's timeline and its size.
    public struct Snapped: Sendable, Hashable {
        public var time: Double
        public var width: Int
        public var height: Int
    }

    /// A rendered thumbnail: JPEG bytes and the picture's size.
    public struct Rendered: Sendable, Equatable {
        public var jpeg: Data
        public var width: Int
        public var height: Int
    }

    /// The keyframe of `rendition` nearest at or before `time`, decoding keyframes only.
    static func keyframe(of rendition: RenditionIndex.Rendition, at time: Double, cancellation: CancellationFlag) throws -> Frame {
        guard let segment = rendition.segment(at: time) else { throw MediaError.invalid("the rendition has no segment") }
        let offset = time - segment.start
        var chosen: Frame?
        try SegmentDecoder.decode(segment, from: offset, cancellation: cancellation) { frame, seconds in
            guard chosen == nil || seconds <= offset + 0.001 else { return false }
            chosen = try frame.reference()
            return seconds <= offset + 0.001
        }
        guard let chosen else { throw MediaError.invalid("segment \(segment.path) holds no picture") }
        return chosen
    }
}
