import Foundation

/// What one chunk of a split title wrote: each rung's segments and I-frames, and the closed captions of the
/// pictures of those segments. It is written beside the segments, in the title's folder, each time every rung has
/// closed one more segment (`complete` false: the title's coordinator publishes them while the chunk goes on), and
/// once more when the chunk is done.
struct ChunkManifest: Codable, Equatable {
    var index: Int
    /// Whether the chunk is done; until then the manifest lists the segments every rung has closed.
    var complete: Bool
    /// One rendition per rung, in ladder order; segment numbers count from the chunk's first segment, I-frame
    /// segment indices from 0 within the chunk.
    var renditions: [Rendition]
    /// The closed captions of the pictures of the segments listed, in order, in `CaptionedPicture.encode`'s form
    /// (base64 in the JSON); nil in a manifest written before chunks kept them.
    var captions: Data?

    /// The folder, inside a title's folder, that holds the manifests; not served (`.json` is no stream file).
    static let folder = "chunks"

    static func url(in title: URL, index: Int) -> URL {
        title.appendingPathComponent(folder).appendingPathComponent(String(format: "chunk_%03d.json", index))
    }

    /// Where the rung `rung` of a chunk starting at segment `firstSegment` (after the first) writes its fMP4 init
    /// segment: beside the manifests, for `checkInitSegments` to compare with the title's.
    static func initSegment(in title: URL, rung: String, firstSegment: Int) throws -> URL {
        let folder = title.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(String(format: "%@_init_%03d.mp4", rung, firstSegment))
    }

    /// Checks that every chunk of an fMP4 title wrote the init segment the title's playlists name, for each rung
    /// of `renditions`: the chunks' encoders have the same settings, so the same parameter sets and sample entry.
    /// A chunk whose segments would need another init segment fails the title, with the rung and segment.
    static func checkInitSegments(in title: URL, renditions: [Rendition]) throws {
        let chunkFolder = title.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: chunkFolder.path)) ?? []
        for rendition in renditions {
            let expected = FileManager.default.contents(atPath: title.appendingPathComponent(rendition.rung.name)
                .appendingPathComponent(SegmentFormat.initSegment).path)
            for name in names.sorted() where name.hasPrefix("\(rendition.rung.name)_init_") {
                guard FileManager.default.contents(atPath: chunkFolder.appendingPathComponent(name).path) == expected else {
                    throw MediaError.invalid("the chunk of \(rendition.rung.name) written as \(name) has another init segment than the title's first chunk (different parameter sets), so its segments cannot follow the title's init.mp4")
                }
            }
        }
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
    /// The manifest of chunk `index` listing what `earlier` lists (an earlier attempt's), then `renditions` and
    /// the `captions` of their pictures.
    init(index: Int, complete: Bool, after earlier: ChunkManifest?, renditions: [Rendition], captions: [CaptionedPicture]) {
        let this = ChunkManifest(index: index, complete: complete, renditions: renditions)
        self = earlier.map { ChunkManifest(index: index, complete: complete, renditions: Self.stitch([$0, this])) } ?? this
        self.captions = (earlier?.captions ?? Data()) + CaptionedPicture.encode(captions)
    }
}
