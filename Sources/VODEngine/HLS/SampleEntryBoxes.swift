import Foundation
import VODFFmpeg

/// Adds boxes to the video sample entry of an fMP4 init segment, which FFmpeg 5.1's MP4 muxer cannot write itself
/// (an HDR rung's `mdcv` and `clli`, `HDRLightLevels.sampleEntryBoxes`).
enum SampleEntryBoxes {
    /// The boxes that hold a track's sample entries, from the `moov` down to the `stsd`.
    private static let path = ["moov", "trak", "mdia", "minf", "stbl", "stsd"]

    /// Appends `boxes` to the end of the first `avc1` or `hvc1` sample entry of the init segment at `url`, growing
    /// that entry and every box that holds it by their length. An init segment's fragments count their data from
    /// their own `moof`, so nothing else moves.
    static func append(_ boxes: [UInt8], toVideoSampleEntryIn url: URL) throws {
        guard !boxes.isEmpty else { return }
        var bytes = [UInt8](try Data(contentsOf: url))
        guard let holders = videoSampleEntry(in: bytes) else {
            throw MediaError.invalid("\(url.lastPathComponent) has no avc1 or hvc1 sample entry to add HDR boxes to")
        }
        let entry = holders[holders.count - 1]
        bytes.insert(contentsOf: boxes, at: entry.end)
        for holder in holders {
            let size = UInt32(holder.end - holder.start + boxes.count)
            bytes.replaceSubrange(holder.start ..< holder.start + 4, with: (0..<4).reversed().map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        }
        try Data(bytes).write(to: url)
    }

    /// The boxes from the `moov` down to the first video sample entry, that entry last; nil when there is none.
    private static func videoSampleEntry(in bytes: [UInt8]) -> [FragmentIndex.Box]? {
        for chain in descend(bytes, path: path, from: 0, to: bytes.count) {
            // An `stsd` is a full box (version and flags) with an entry count before its entries.
            let stsd = chain[chain.count - 1]
            if let entry = FragmentIndex.boxes(in: bytes, from: stsd.body + 8, to: stsd.end).first,
               ["avc1", "hvc1"].contains(entry.type) {
                return chain + [entry]
            }
        }
        return nil
    }

    /// Every chain of boxes whose types are `path`, one below the other, between `start` and `end`.
    private static func descend(_ bytes: [UInt8], path: [String], from start: Int, to end: Int) -> [[FragmentIndex.Box]] {
        guard let type = path.first else { return [[]] }
        return FragmentIndex.boxes(in: bytes, from: start, to: end).filter { $0.type == type }.flatMap { box in
            descend(bytes, path: Array(path.dropFirst()), from: box.body, to: box.end).map { [box] + $0 }
        }
    }
}
