import Foundation

/// What one chunk of a split title wrote: each rung's segments and I-frames. It is written beside the segments,
/// in the title's folder, each time every rung has closed one more segment (`complete` false: the title's
/// coordinator publishes them while the chunk goes on), and once more when the chunk is done.
struct ChunkManifest: Codable, Equatable {
    var index: Int
    /// Whether the chunk is done; until then the manifest lists the segments every rung has closed.
    var complete: Bool
    /// One rendition per rung, in ladder order; segment numbers count from the chunk's first segment, I-frame
    /// segment indices from 0 within the chunk.
    var renditions: [Rendition]

    /// The folder, inside a title's folder, that holds the manifests; not served (`.json` is no stream file).
    static let folder = "chunks"

    static func url(in title: URL, index: Int) -> URL {
        title.appendingPathComponent(folder).appendingPathComponent(String(format: "chunk_%03d.json", index))
    }

    /// Writes the manifest into `title`, replacing any earlier attempt's in one rename.
    func write(to title: URL) throws {
        let url = Self.url(in: title, index: index)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try PlaylistSet.replace(url, with: String(decoding: try encoder.encode(self), as: UTF8.self))
    }

    /// The manifest of chunk `index` in `title`, nil while no segment of the chunk is closed in every rung.
    static func read(from title: URL, index: Int) throws -> ChunkManifest? {
        guard let data = FileManager.default.contents(atPath: url(in: title, index: index).path) else { return nil }
        return try JSONDecoder().decode(ChunkManifest.self, from: data)
    }

    /// The renditions of consecutive chunks joined into one per rung: segments in order, I-frames pointing into
    /// the joined segment list.
    static func stitch(_ manifests: [ChunkManifest]) -> [Rendition] {
        guard var renditions = manifests.first?.renditions else { return [] }
        for manifest in manifests.dropFirst() {
            for (position, rendition) in manifest.renditions.enumerated() where position < renditions.count {
                let offset = renditions[position].segments.count
                renditions[position].segments += rendition.segments
                renditions[position].iFrames += rendition.iFrames.map { frame in
                    var frame = frame
                    frame.segmentIndex += offset
                    return frame
                }
            }
        }
        return renditions
    }
}

extension ChunkManifest {
    /// The manifest of chunk `index` listing what `earlier` lists (an earlier attempt's), then `renditions`.
    init(index: Int, complete: Bool, after earlier: ChunkManifest?, renditions: [Rendition]) {
        let this = ChunkManifest(index: index, complete: complete, renditions: renditions)
        self = earlier.map { ChunkManifest(index: index, complete: complete, renditions: Self.stitch([$0, this])) } ?? this
    }
}
