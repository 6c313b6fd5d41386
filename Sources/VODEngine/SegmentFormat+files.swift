import Foundation
import VODFFmpeg
import VODModel

extension SegmentFormat {
    /// The init segment of each rendition of an fMP4 title, beside its media playlist.
    static let initSegment = "init.mp4"

    /// The container of a rung of `codec` in a title of this format: the title's, but fMP4 for HEVC, which HLS
    /// carries in fMP4 only. An MPEG-TS title's HDR rung is fMP4 among TS rungs, its sound muxed into its segments
    /// as theirs is, or taken from the same audio renditions.
    func carrying(_ codec: VideoCodec) -> SegmentFormat {
        codec == .hevc ? .fmp4 : self
    }

    /// The `#EXT-X-MAP` URI of a rendition's media and I-frame playlists: nil for MPEG-TS.
    var map: String? { self == .fmp4 ? Self.initSegment : nil }

    /// The file name of segment `index` of a rendition, such as `segment_000.ts` or `segment_000.m4s`.
    func fileName(ofSegment index: Int) -> String {
        String(format: self == .fmp4 ? "segment_%03d.m4s" : "segment_%03d.ts", index)
    }

    /// The segment files of one rendition in `directory`, one stream per encoder; `language` tags one stream.
    ///
    /// `firstSegment` numbers the first segment (0, or where a chunk of a split title starts). For fMP4,
    /// `initSegment` is where the init segment goes, `firstFragment` numbers the first fragment, and
    /// `frameDuration` (seconds) is the duration of the video's pictures, stream 0, when it is video, and
    /// `sampleEntryBoxes` go into its sample entry.
    func writer(directory: URL, encoders: [Codec], language: (stream: Int, code: String)?, cancellation: CancellationFlag,
                firstSegment: Int, initSegment: URL, firstFragment: Int, frameDuration: Double?,
                sampleEntryBoxes: [UInt8] = []) -> any SegmentWriter {
        switch self {
        case .ts:
            SegmentFiles(directory: directory, encoders: encoders, language: language, cancellation: cancellation,
                         firstIndex: firstSegment)
        case .fmp4:
            FragmentedSegmentFiles(directory: directory, encoders: encoders, language: language, cancellation: cancellation,
                                   firstIndex: firstSegment, initSegment: initSegment, firstFragment: firstFragment,
                                   frameDuration: frameDuration, sampleEntryBoxes: sampleEntryBoxes)
        }
    }
}
