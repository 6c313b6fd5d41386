import VODFFmpeg

/// A rung as it will be encoded for one source: its output size follows the source's orientation.
public struct PlannedRung: Sendable, Equatable, Codable {
    /// The folder and playlist name of the rendition, such as `720p` or `720p-hevc`.
    public var name: String
    /// The encoded width, after rotation.
    public var width: Int
    /// The encoded height, after rotation.
    public var height: Int
    /// The target video bitrate in bits per second: the VBV cap at constant quality.
    public var bitrate: Int
    /// The x264 constant rate factor the rung is encoded at, capped by VBV at `bitrate` (`RateControl.quality`);
    /// nil encodes at `bitrate` (`RateControl.fixed`). Every chunk of a split title carries the title's.
    public var crf: Double?
    /// The rung's video coding.
    public var codec: VideoCodec
    /// The HDR transfer the rung keeps from its source (`pq` or `hlg`, in 10-bit HEVC); nil for an SDR rung.
    public var dynamicRange: DynamicRange?
    /// The source's mastering display and content light level, which an HDR rung carries; nil when it has none.
    public var lightLevels: HDRLightLevels?

    /// A rung of `width` × `height` at `bitrate`, at constant quality `crf` when given, in `codec`, keeping
    /// `dynamicRange` when given.
    public init(name: String, width: Int, height: Int, bitrate: Int, crf: Double? = nil, codec: VideoCodec = .h264,
                dynamicRange: DynamicRange? = nil) {
        self.name = name
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.crf = crf
        self.codec = codec
        self.dynamicRange = dynamicRange
    }

    /// Whether the rung keeps its source's HDR.
    public var isHDR: Bool { dynamicRange != nil }

    /// The H.273 transfer an HDR rung keeps (16 for PQ, 18 for HLG); nil for an SDR rung.
    var hdrTransferCode: Int32? {
        switch dynamicRange {
        case .pq: SourceColour.pq
        case .hlg: SourceColour.hlg
        case .dolbyVision, nil: nil
        }
    }

    /// The master playlist's `VIDEO-RANGE` for the rung: `PQ`, `HLG` or `SDR`.
    public var videoRange: String {
        switch dynamicRange {
        case .pq: "PQ"
        case .hlg: "HLG"
        case .dolbyVision, nil: "SDR"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, width, height, bitrate, crf, codec, dynamicRange, lightLevels
    }

    /// A rung written before rungs had a coding or a range (a chunk queued by an older worker) is SDR H.264.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(name: container.decode(String.self, forKey: .name), width: container.decode(Int.self, forKey: .width),
                      height: container.decode(Int.self, forKey: .height), bitrate: container.decode(Int.self, forKey: .bitrate),
                      crf: container.decodeIfPresent(Double.self, forKey: .crf),
                      codec: container.decodeIfPresent(VideoCodec.self, forKey: .codec) ?? .h264,
                      dynamicRange: container.decodeIfPresent(DynamicRange.self, forKey: .dynamicRange))
        lightLevels = try container.decodeIfPresent(HDRLightLevels.self, forKey: .lightLevels)
    }
}

/// Decides which rungs a source gets and at what size.
///
/// A rung's short side is its "p" number. Rungs taller than the source are dropped (never upscale). A source
/// below the smallest rung gets one rung at its own size. Sizes keep the display aspect ratio and are even.
public enum LadderPlanner {
    /// The share of an H.264 rung's bitrate its HEVC twin gets: HEVC makes the same picture in about 30 % fewer
    /// bits.
    static let hevcBitrateShare = 0.7

    /// The H.264 rungs of `plan`, followed by their HEVC twins (`hevc(_:)`) when `codecs` has HEVC.
    static func withTwins(_ plan: [PlannedRung], codecs: [VideoCodec]) -> [PlannedRung] {
        plan + (codecs.contains(.hevc) ? plan.map(hevc) : [])
    }

    /// The HEVC twin of an H.264 rung: the same size, `hevcBitrateShare` of its bitrate, named `NAME-hevc`.
    static func hevc(_ rung: PlannedRung) -> PlannedRung {
        PlannedRung(name: rung.name + "-hevc", width: rung.width, height: rung.height,
                    bitrate: Int((Double(rung.bitrate) * hevcBitrateShare).rounded()), crf: rung.crf, codec: .hevc)
    }

    /// The largest short side an HDR rung has: one HDR rung at 1080p already takes an HDR title's transcode to
    /// 1.3× (4k source) to 1.5× (1080p source) the SDR ladder's time on 2 cores (docs/engine.md); at 4k it would
    /// have four times the pixels.
    static let hdrShortSideLimit = 1080

    /// `plan`, followed by an HDR rung keeping `range` (`pq` or `hlg`) and carrying `lightLevels` when given: the
    /// HEVC Main10 twin (`hevc(_:)`) of the largest H.264 rung whose short side is at most `hdrShortSideLimit`,
    /// named `NAME-hdr`. One rung keeps an HDR transcode within 1.6 times an SDR one; HDR screens are the large
    /// ones, and a player falls back to the SDR rungs when its bandwidth drops.
    static func withHDR(_ plan: [PlannedRung], keeping range: DynamicRange?, lightLevels: HDRLightLevels? = nil) -> [PlannedRung] {
        guard let range, range != .dolbyVision,
              let top = plan.filter({ $0.codec == .h264 && min($0.width, $0.height) <= hdrShortSideLimit })
                  .max(by: { $0.width * $0.height < $1.width * $1.height })
        else { return plan }
        var rung = hevc(top)
        rung.name = top.name + "-hdr"
        rung.dynamicRange = range
        rung.lightLevels = lightLevels
        return plan + [rung]
    }

    /// Plans `ladder` in H.264 for a source shown at `displayWidth` × `displayHeight` (rotation and pixel aspect
    /// applied).
    public static func plan(ladder: [Rung], displayWidth: Int, displayHeight: Int) throws -> [PlannedRung] {
        guard displayWidth >= 2, displayHeight >= 2 else {
            throw MediaError.invalid("the video is \(displayWidth)×\(displayHeight), too small to encode")
        }
        try InputPolicy.checkPicture(width: displayWidth, height: displayHeight)
        guard !ladder.isEmpty else { throw MediaError.unsupported("the ladder has no rungs") }
        let sourceShort = min(displayWidth, displayHeight)
        let fitting = ladder.filter { $0.shortSide <= sourceShort }.sorted { $0.shortSide < $1.shortSide }
        if fitting.isEmpty {
            let smallest = ladder.min { $0.shortSide < $1.shortSide }!
            let size = scaled(width: displayWidth, height: displayHeight, shortSide: sourceShort)
            let pixelShare = Double(size.width * size.height) / Double(smallest.width * smallest.height)
            let bitrate = max(Int(Double(smallest.bitrate) * pixelShare), 100_000)
            return [PlannedRung(name: "\(evenFloor(sourceShort))p", width: size.width, height: size.height, bitrate: bitrate)]
        }
        return fitting.map { rung in
            let size = scaled(width: displayWidth, height: displayHeight, shortSide: rung.shortSide)
            return PlannedRung(name: rung.name, width: size.width, height: size.height, bitrate: rung.bitrate)
        }
    }

    /// The size with the given short side and the source's aspect ratio, both dimensions even.
    private static func scaled(width: Int, height: Int, shortSide: Int) -> (width: Int, height: Int) {
        let short = evenFloor(shortSide)
        let exact = Double(max(width, height)) * Double(shortSide) / Double(min(width, height))
        let long = min(evenRound(exact), evenFloor(max(width, height)))
        return width >= height ? (long, short) : (short, long)
    }

    private static func evenFloor(_ value: Int) -> Int { max(2, value - value % 2) }

    private static func evenRound(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
}
