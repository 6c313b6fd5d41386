import Foundation

/// How `Transcoder` encodes and packages a title.
public struct TranscodeOptions: Sendable, Equatable {
    /// The rungs to produce; rungs taller than the source are dropped.
    public var ladder: [Rung]
    /// The libx264 preset, such as `veryfast`.
    public var preset: String
    /// The target segment duration in seconds.
    public var segmentDuration: Double
    /// The first segment's target duration in seconds, short so that a title is playable, and a player starts,
    /// in seconds; at most `segmentDuration`, and at least one keyframe interval in effect.
    public var firstSegmentDuration: Double
    /// How many segments at the title's start last `firstSegmentDuration`: the title can say it is playable
    /// once its publication stays ahead of a player (`PublicationPace`), which short segments let it show
    /// after fewer seconds of media, most of all where the machine encodes at about real time.
    public var shortSegments: Int
    /// The libx264 preset of the first segment of the rungs larger than `fastStartPixels`, faster than `preset`
    /// so that a title is out in seconds even where its largest rung encodes slower than real time; that segment
    /// is encoded again at `preset` and swapped in before the title is ready. The same as `preset` turns the fast
    /// start off.
    public var startPreset: String
    /// The rungs with more pixels than this start fast (`startPreset`): by default those above 1080p, the ones
    /// whose first segment would otherwise keep a 2-core machine for seconds. 0 starts every rung fast.
    public var fastStartPixels: Int
    /// Seconds between IDR frames; identical in every rung.
    public var keyframeInterval: Double
    /// The AAC bitrate in bits per second.
    public var audioBitrate: Int
    /// x264 threads per rung; nil shares the machine's cores among the rungs by their pixels.
    public var threads: Int?
    /// How each rung spends its bits: its bitrate (the default here), or constant quality capped at it (the default
    /// of the command line, `EncodingOptions`).
    public var rateControl: RateControl
    /// With `RateControl.quality`, the CRF of every title; nil chooses one per title (`QualityAnalysis`).
    public var crf: Double?
    /// The loudness every audio rendition is brought to, in LUFS, with true peaks at most −1 dBTP; nil leaves the
    /// sound's level as it is (`LoudnessNormalizer`).
    public var loudnessTarget: Double?
    /// The container of the segments: MPEG-TS (the default) or fMP4 (CMAF).
    public var segmentFormat: SegmentFormat
    /// The ladders to encode: H.264 (the default), and an HEVC ladder beside it with `.hevc`, made only for fMP4
    /// titles (`videoCodecs`).
    public var codecs: [VideoCodec]
    /// The libx265 preset of the SDR HEVC rungs, such as `superfast`.
    public var hevcPreset: String
    /// The libx265 preset of the HDR rungs: `ultrafast` by default, which keeps an HDR title's transcode within
    /// 1.6× the SDR ladder's on 2 cores (docs/engine.md, "HDR kept for HDR screens").
    public var hdrPreset: String
    /// Whether an HDR source also gets an HDR rendition (`keepsHDR`), beside its tone-mapped SDR ladder.
    public var hdr: HDRPolicy

    /// The loudness targets `loudnorm` accepts, in LUFS.
    public static let loudnessTargets: ClosedRange<Double> = -70 ... -5

    /// libx264's presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// The preset the first segment is encoded with: `startPreset` where it is faster than `preset`, else `preset`.
    var firstSegmentPreset: String {
        guard let start = Self.presets.firstIndex(of: startPreset), let main = Self.presets.firstIndex(of: preset),
              start < main else { return preset }
        return startPreset
    }

    /// Whether `rung`'s first segment is encoded with `startPreset`, then again at `preset` before the end: only
    /// H.264 rungs, since an HEVC rung joins the master once its pace holds.
    func startsFast(_ rung: PlannedRung) -> Bool {
        rung.codec == .h264 && firstSegmentPreset != preset && rung.width * rung.height > fastStartPixels
    }

    /// The preset `rung` is encoded with after its first segment: `hdrPreset` for an HDR rung, `hevcPreset` for
    /// an SDR HEVC one, `preset` for H.264.
    func preset(of rung: PlannedRung) -> String {
        rung.isHDR ? hdrPreset : rung.codec == .hevc ? hevcPreset : preset
    }

    /// These options with the fast start off: for a title that nobody sees before it is complete.
    var withoutFastStart: TranscodeOptions {
        var options = self
        options.startPreset = preset
        return options
    }

    /// The target durations of the segments.
    var segmentDurations: SegmentDurations {
        SegmentDurations(first: min(firstSegmentDuration, segmentDuration), target: segmentDuration, shortCount: shortSegments)
    }

    /// The VBV cap: maxrate is this multiple of a rung's bitrate.
    public static let maxrateRatio = 1.1
    /// The VBV buffer holds this many seconds at a rung's bitrate.
    public static let bufferSeconds = 2.0

    public init(
        ladder: [Rung] = Rung.defaultLadder,
        preset: String = "veryfast",
        segmentDuration: Double = 6,
        firstSegmentDuration: Double = 2,
        shortSegments: Int = 5,
        startPreset: String = "superfast",
        fastStartPixels: Int = 1920 * 1080,
        keyframeInterval: Double = 2,
        audioBitrate: Int = 128_000,
        threads: Int? = nil,
        rateControl: RateControl = .fixed,
        crf: Double? = nil,
        loudnessTarget: Double? = nil,
        segmentFormat: SegmentFormat = .ts,
        codecs: [VideoCodec] = [.h264],
        hevcPreset: String = "superfast",
        hdr: HDRPolicy = .keep,
        hdrPreset: String = "ultrafast"
    ) {
        self.ladder = ladder
        self.preset = preset
        self.segmentDuration = segmentDuration
        self.firstSegmentDuration = firstSegmentDuration
        self.shortSegments = shortSegments
        self.startPreset = startPreset
        self.fastStartPixels = fastStartPixels
        self.keyframeInterval = keyframeInterval
        self.audioBitrate = audioBitrate
        self.threads = threads
        self.rateControl = rateControl
        self.crf = crf
        self.loudnessTarget = loudnessTarget
        self.segmentFormat = segmentFormat
        self.codecs = codecs
        self.hevcPreset = hevcPreset
        self.hdr = hdr
        self.hdrPreset = hdrPreset
    }

    /// The ladders this title gets: H.264, and HEVC where asked for and the segments are fMP4, since HLS carries
    /// HEVC in fMP4 only (a worker asked for HEVC still makes a title ingested as MPEG-TS in H.264 alone).
    var videoCodecs: [VideoCodec] {
        [.h264] + (segmentFormat == .fmp4 && codecs.contains(.hevc) ? [.hevc] : [])
    }

    /// Whether an HDR source gets HDR rungs: in an fMP4 title like its other rungs, in an MPEG-TS title as the
    /// one fMP4 rung among them (`SegmentFormat.carrying`).
    var keepsHDR: Bool { hdr == .keep }
}

/// How far a transcode has come.
public struct TranscodeProgress: Sendable, Equatable {
    /// The fraction of source time decoded, from 0 to 1.
    public var fraction: Double
    /// The names of the rungs whose renditions are complete.
    public var completedRungs: [String]
    /// How far each rung's encoder has come, in ladder order: empty for an audio-only title.
    public var rungs: [RungProgress]

    public init(fraction: Double, completedRungs: [String], rungs: [RungProgress] = []) {
        self.fraction = fraction
        self.completedRungs = completedRungs
        self.rungs = rungs
    }
}

/// How far one rung's encoder has come.
public struct RungProgress: Sendable, Equatable {
    /// The rung's name, such as `720p`.
    public var name: String
    /// The fraction of the source's duration it has encoded, from 0 to 1.
    public var fraction: Double
    /// Whether the master served now lists the rung: from its publication that stays ahead of a player, or
    /// once it is complete (`Publication.rungs`).
    public var listed: Bool

    public init(name: String, fraction: Double, listed: Bool = false) {
        self.name = name
        self.fraction = fraction
        self.listed = listed
    }
}

/// What a finished transcode wrote.
public struct TranscodeResult: Sendable, Codable, Equatable {
    /// The folder holding `master.m3u8`.
    public var outputDirectory: String
    /// The duration of the output in seconds.
    public var duration: Double
    /// One entry per rendition, in master playlist order.
    public var variants: [VariantSummary]
    /// The total size of everything written, in bytes.
    public var totalBytes: Int64
    /// How the title's CRF was chosen (`RateControl.quality`), when an analysis chose it.
    public var qualityAnalysis: QualityChoice?
    /// Every track of the source as the media JSON lists it, each audio track read with its measured loudness.
    public var tracks: [TrackListing]

    /// The master playlist's location.
    public var masterPlaylist: URL {
        URL(fileURLWithPath: outputDirectory).appendingPathComponent("master.m3u8")
    }

    /// What was written into `folder`: the variants the master lists, each rung's bandwidth measured with the
    /// stereo audio a player adds to it, or the audio renditions themselves for an audio-only title.
    init(folder: URL, duration: Double, renditions: [Rendition], audio: [AlternateRendition], tracks: [TrackListing],
         qualityAnalysis: QualityChoice? = nil) {
        let target = PlaylistWriter.targetDuration(of: renditions, audio: audio)
        let stereo = audio.filter { $0.group == AudioFormat.stereoGroup }
        variants = renditions.isEmpty
            ? AudioOnlyVariant.variants(of: audio, targetDuration: target).map(VariantSummary.init)
            : renditions.map { VariantSummary($0, declared: VariantBandwidth($0, audio: stereo, targetDuration: target)) }
        outputDirectory = folder.path
        self.duration = duration
        totalBytes = OutputFolder.size(of: folder)
        self.qualityAnalysis = qualityAnalysis
        self.tracks = tracks
    }
}

/// One rendition as listed in the master playlist.
public struct VariantSummary: Sendable, Codable, Equatable {
    public var name: String
    public var width: Int
    public var height: Int
    /// The measured peak bitrate (RFC 8216 BANDWIDTH), in bits per second.
    public var bandwidth: Int
    /// The measured average bitrate, in bits per second.
    public var averageBandwidth: Int
    /// The RFC 6381 codecs string, such as `avc1.64001f,mp4a.40.2`.
    public var codecs: String
    public var frameRate: Double
    public var segmentCount: Int
    /// The media playlist's path relative to the output folder, such as `720p/index.m3u8`.
    public var playlist: String
    /// How the rung spent its bits; nil for audio.
    public var rateControl: RateControl?
    /// The CRF the rung was encoded at, capped at its bitrate (`RateControl.quality`); nil at a fixed bitrate
    /// and for audio.
    public var crf: Double?
    /// The master's VIDEO-RANGE of a video variant: `SDR`, or `PQ` or `HLG` for an HDR rung; nil for audio, and
    /// for a title transcoded before it was told (whose variants are all SDR).
    public var videoRange: String?

    public init(
        name: String, width: Int, height: Int, bandwidth: Int, averageBandwidth: Int, codecs: String, frameRate: Double,
        segmentCount: Int, playlist: String, rateControl: RateControl? = nil, crf: Double? = nil, videoRange: String? = nil
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.frameRate = frameRate
        self.segmentCount = segmentCount
        self.playlist = playlist
        self.rateControl = rateControl
        self.crf = crf
        self.videoRange = videoRange
    }
}
