/// How each rung's encoder spends its bits.
public enum RateControl: String, Sendable, Codable, CaseIterable {
    /// Constant quality (x264 CRF, chosen per title by `QualityAnalysis`) capped by VBV at the rung's bitrate: a
    /// static slide gets far fewer bits than sport, and no rung's peak goes past its bitrate.
    case quality
    /// An average of the rung's bitrate whatever the picture (maxrate 1.1 × the bitrate): the ladder before
    /// rate control.
    case fixed

    /// The CRF a title gets when no analysis chooses one: the first segment of a title published as it grows,
    /// encoded before the analysis ends, and titles too short to sample.
    public static let defaultCRF = 23.0

    /// At constant quality, the VBV maxrate as a share of the rung's bitrate, and its buffer in seconds at that
    /// bitrate: a picture that wants more than the cap gets it in every segment, and its measured peak (the
    /// buffer's burst at the start included) stays within 10 % of the bitrate: 1.07 × on noise at 600 kb/s. The
    /// fixed rate's maxrate of 1.1 × with a 2 s buffer measured 1.22 × there at constant quality.
    public static let capShare = 0.95
    public static let bufferSeconds = 1.0
    /// At constant quality, how full the VBV buffer of an encoder that plans ahead starts (libx265, and libx264
    /// at the presets with a lookahead, from `veryfast` on): well over half, since such an encoder keeps its
    /// buffer at least half full at the end of its lookahead and starves the pictures before to get there. At
    /// 0.3, x264 `veryfast` gave an animation's first keyframe 6.5 kB where the next had 55 kB, and its first
    /// 2 s an SSIM of 0.81 against 0.90 after them; at 0.7, 28 kB and 0.88. What it spends beyond its maxrate
    /// in the first segment is what it drains below this start: on noise at a 600 kb/s cap, the 2 s first
    /// segment came to 1.04 × the cap at 0.7 (MPEG-TS included), against 0.95 × after it and 1.10 × at 0.8
    /// before the muxer stopped repeating its tables every 0.1 s (`SegmentFiles.muxerOptions`).
    public static let initialBufferFill = 0.7
    /// At constant quality, how full the VBV buffer starts for libx264 at `ultrafast` and `superfast`, which
    /// have no lookahead: low, since without one x264 lets a keyframe take half of the buffer and the pictures
    /// after it drain the rest. At 0.8, `superfast` spent 1.21 × the cap in an animation's 2 s first segment
    /// (x264's default of 0.9 measured 1.37 × on a broadcast capture); at 0.3 its first keyframe still had 24 kB.
    public static let initialBufferFillWithoutLookahead = 0.3
    /// libx264's presets that plan no pictures ahead (`rc-lookahead` 0).
    static let presetsWithoutLookahead: Set<String> = ["ultrafast", "superfast"]

    /// How full the VBV buffer of an encoder of `codec` at `preset` starts at constant quality.
    static func initialBufferFill(codec: VideoCodec, preset: String) -> Double {
        codec == .h264 && presetsWithoutLookahead.contains(preset) ? initialBufferFillWithoutLookahead : initialBufferFill
    }

    /// At constant quality, the share of its VBV buffer a libx264 rung keeps for the pictures after the title's
    /// (or chunk's) last keyframe. Near its end x264's lookahead sees fewer pictures to come and spends its buffer
    /// down to half full: an animation's last 2 s segment at 720p came to 905 kb/s where the others had 773–790
    /// (1.13 × the 800 kb/s cap, MPEG-TS included). A buffer cut to this share from the picture after the last
    /// keyframe (x264 then keeps no more than the new size) left 838 kb/s (1.05 ×) at 0.6, with an SSIM of 0.897
    /// over those 2 s against 0.905 unbounded; 783 kb/s and 0.885 at 0.4, 882 kb/s (1.10 ×) at 0.8.
    public static let closingBufferShare = 0.6

    /// What MPEG-TS adds to each picture, in bytes, on average: its PES header, the PCR's adaptation field and
    /// the half-filled last packet (about 7 % at 600 kb/s and 30 fps, 20 % at 150 kb/s), taken off the maxrate.
    public static let muxingBytesPerPicture = 125
}

extension PlannedRung {
    /// This rung at constant quality `crf` (capped at its bitrate), or at its bitrate when `crf` is nil.
    func at(crf: Double?) -> PlannedRung {
        var rung = self
        rung.crf = crf
        return rung
    }

    /// The VBV maxrate, in bits per second, of the rung at `framesPerSecond` in segments of `format`: at a fixed
    /// rate 1.1 × the bitrate; at constant quality `RateControl.capShare` of it, less the MPEG-TS overhead of each
    /// picture (`RateControl.muxingBytesPerPicture`) for a rung in MPEG-TS, so that the measured peak stays within
    /// 10 % of the bitrate. A rung in fMP4, whose overhead is a few bytes a fragment, keeps the whole share: taking
    /// MPEG-TS's off cost the animation's 720p HEVC twin (560 kb/s) 0.008 of SSIM.
    func maximumBitrate(framesPerSecond: Double, format: SegmentFormat) -> Int64 {
        guard crf != nil else { return Int64(Double(bitrate) * TranscodeOptions.maxrateRatio) }
        let overhead = format == .ts ? framesPerSecond * Double(RateControl.muxingBytesPerPicture * 8) : 0
        return Int64(max(Double(bitrate) * RateControl.capShare - overhead, Double(bitrate) / 2))
    }

    /// The VBV buffer, in bits: `RateControl.bufferSeconds` at the rung's bitrate at constant quality,
    /// `TranscodeOptions.bufferSeconds` at a fixed rate.
    var bufferBits: Int32 {
        Int32(Double(bitrate) * (crf == nil ? TranscodeOptions.bufferSeconds : RateControl.bufferSeconds))
    }
}

extension Rendition {
    /// This rendition with its rung at constant quality `crf`.
    func at(crf: Double) -> Rendition {
        var rendition = self
        rendition.rung = rung.at(crf: crf)
        return rendition
    }
}
