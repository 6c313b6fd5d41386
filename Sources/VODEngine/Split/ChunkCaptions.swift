import Foundation
import Synchronization

/// The closed captions one output picture of a split title carries: its `cc_data` triplets that hold data, as
/// the chunk that encoded the picture sent them into its rungs.
struct CaptionedPicture: Codable, Equatable, Sendable {
    /// The output frame, on the title's timeline.
    var frame: Int64
    /// The triplets (in the manifest's JSON, base64).
    var bytes: Data
}

/// The closed captions of the pictures a chunk of a split title emits, kept for its manifest: the title's
/// coordinator reads every chunk's in order at the stitch, as one stream, so that a caption loaded in one chunk
/// and shown or erased in the next is read as one transcode of the whole reads it. Filled on the source stage's
/// thread, read on the publisher's.
final class ChunkCaptions: Sendable {
    private let pictures = Mutex<[CaptionedPicture]>([])

    /// Keeps the triplets of output picture `frame` that hold data; a picture with none is left out.
    func record(_ captions: [UInt8], frame: Int64) {
        let triplets = CaptionCarry.dataTriplets(of: captions)
        guard !triplets.isEmpty else { return }
        pictures.withLock { $0.append(CaptionedPicture(frame: frame, bytes: Data(triplets))) }
    }

    /// The pictures recorded before output frame `end` (every one without it), in order.
    func pictures(before end: Int64 = .max) -> [CaptionedPicture] {
        pictures.withLock { $0.filter { $0.frame < end } }
    }
}
