import Foundation
import VODFFmpeg

/// Pictures of a finished title, taken from its renditions: the poster in a few widths and the storyboard
/// written once at the end of the transcode, and single thumbnails rendered on demand.
public enum Stills {
    /// The poster widths written, where the rendition is at least as wide.
    public static let posterWidths = [320, 640, 1280]

    /// Writes the poster (`poster.jpg` and `poster_<width>.jpg`), the storyboard (`storyboard.vtt` and its
    /// sheets) and `stills.json` into `stills/` of `titleFolder`, a finished title. Blocking: run it on a thread
    /// of its own. Returns nil, writing nothing, for an audio-only title. Keyframes are `keyframeInterval`
    /// seconds apart.
    public static func write(titleFolder: URL, keyframeInterval: Double = 2,
                             cancellation: CancellationFlag = CancellationFlag()) throws -> StillsManifest? {
        let index = try RenditionIndex(folder: titleFolder)
        guard let small = index.rendition(atLeast: StoryboardLayout.tileWidth),
              let large = index.rendition(atLeast: posterWidths.last!) else { return nil }
        let folder = titleFolder.appendingPathComponent(StillsManifest.folder)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let layout = StoryboardLayout(duration: small.duration, keyframeInterval: keyframeInterval,
                                          width: small.width, height: small.height)
            let sheets = StoryboardSheets(layout: layout, folder: folder)
            var candidates: [PosterPicker.Candidate] = []
            // Only the segments that hold a tile's keyframe or a candidate for the poster are read: a long title
            // has a tile every few segments.
            let window = PosterPicker.window(duration: small.duration)
            for segment in small.segments {
                let isCandidate = window.overlaps(segment.start...(segment.start + segment.duration))
                guard isCandidate || layout.hasTile(from: segment.start, to: segment.start + segment.duration) else { continue }
                // The candidates are the window's keyframes, one after another, so that each has its neighbours.
                try SegmentDecoder.decode(segment, cancellation: cancellation) { frame, offset in
                    let time = segment.start + offset
                    if isCandidate { candidates.append(PosterPicker.Candidate(time: time, luma: LumaStatistics(frame))) }
                    try sheets.add(frame, at: time)
                    return true
                }
            }
            _ = try sheets.finish()
            try Data(layout.webVTT.utf8).write(to: folder.appendingPathComponent(StillsManifest.storyboardFile), options: .atomic)
            guard let chosen = PosterPicker.choose(candidates, duration: small.duration) else {
                throw MediaError.invalid("the rendition has no keyframe to take a poster from")
            }
            let time = candidates[chosen].time
            let posters = try writePosters(from: large, at: time, into: folder, cancellation: cancellation)
            let manifest = StillsManifest(posterTime: time, posters: posters, storyboard: layout)
            try manifest.write(to: folder)
            return manifest
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Writes the poster widths that do not upscale `rendition`'s keyframe at `time` (the rendition's own
    /// width when it is narrower than them all), and the largest again as `poster.jpg`.
    private static func writePosters(from rendition: RenditionIndex.Rendition, at time: Double, into folder: URL,
                                     cancellation: CancellationFlag) throws -> [StillsManifest.Poster] {
        let frame = try Thumbnail.keyframe(of: rendition, at: time, cancellation: cancellation)
        var widths = posterWidths.filter { $0 <= rendition.width }
        if widths.isEmpty { widths = [rendition.width] }
        var posters: [StillsManifest.Poster] = []
        var largest = Data()
        for width in widths {
            let size = StillSize(width: width, sourceWidth: rendition.width, sourceHeight: rendition.height)
            let file = "poster_\(size.width).jpg"
            largest = try size.jpeg(from: frame)
            try largest.write(to: folder.appendingPathComponent(file), options: .atomic)
            posters.append(StillsManifest.Poster(file: file, width: size.width, height: size.height))
        }
        try largest.write(to: folder.appendingPathComponent(StillsManifest.posterFile), options: .atomic)
        return posters
    }
}
