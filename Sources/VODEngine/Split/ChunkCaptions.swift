import Foundation
import Synchronization

/// The closed captions one output picture of a split title carries: its `cc_data` triplets that hold data, as
/// the chunk that encoded the picture sent them into its rungs.
struct CaptionedPicture: Equatable, Sendable {
    /// The output frame, on the title's timeline.
    var frame: Int64
    /// The triplets.
    var bytes: [UInt8]

    /// `pictures` in the compact form a chunk's manifest keeps them in (one JSON string, not an object a picture,
    /// since the coordinator reads a growing manifest several times a second): each picture's frame (8 bytes,
    /// little-endian), the count of its bytes (2 bytes, little-endian), then the bytes. Pictures in this form
    /// follow each other, so two lists join by joining their data. A picture keeps its first 65535 bytes (21845
    /// triplets; one A/53 message holds 31).
    static func encode(_ pictures: [CaptionedPicture]) -> Data {
        var data = Data()
        for picture in pictures {
            let bytes = picture.bytes.prefix(Int(UInt16.max))
            withUnsafeBytes(of: picture.frame.littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt16(bytes.count).littleEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: bytes)
        }
        return data
    }

    /// The pictures of `data` (`encode`'s form), up to the first one cut short.
    static func decode(_ data: Data) -> [CaptionedPicture] {
        let bytes = [UInt8](data)
        var pictures: [CaptionedPicture] = []
        var index = 0
        while index + 10 <= bytes.count {
            let frame = (0..<8).reduce(Int64(0)) { $0 | Int64(bytes[index + $1]) << (8 * $1) }
            let count = Int(bytes[index + 8]) | Int(bytes[index + 9]) << 8
            index += 10
            guard index + count <= bytes.count else { break }
            pictures.append(CaptionedPicture(frame: frame, bytes: Array(bytes[index..<index + count])))
            index += count
        }
        return pictures
    }
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
        pictures.withLock { $0.append(CaptionedPicture(frame: frame, bytes: triplets)) }
    }

    /// The pictures recorded before output frame `end` (every one without it), in order.
    func pictures(before end: Int64 = .max) -> [CaptionedPicture] {
        pictures.withLock { $0.filter { $0.frame < end } }
    }
}
