import Foundation

extension ClosedCaptionTrack {
    /// The closed captions of a split title of `frames` output pictures, read from the captions its chunks'
    /// `manifests` (in order, from the first) kept: as one stream across the joins, so that a caption loaded in
    /// one chunk and shown or erased in another is one cue, timed on the title's timeline.
    convenience init(frameRate: FrameRate, chunks manifests: [ChunkManifest], frames: Int64) throws {
        try self.init(frameRate: frameRate)
        for picture in manifests.flatMap({ CaptionedPicture.decode($0.captions ?? Data()) }) {
            add(picture.bytes, frame: picture.frame)
        }
        finish(at: frames)
    }
}
