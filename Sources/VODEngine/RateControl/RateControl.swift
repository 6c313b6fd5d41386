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
    /// At constant quality, how full the VBV buffer starts: low, so that a title whose target duration is 2 s
    /// (one of a few seconds, whose peak is that of its 2 s first segment) cannot spend a full buffer at once
    /// (x264's default of 0.9 measured 1.37 × the bitrate there, on a broadcast capture at `superfast`).
    public static let initialBufferFill = 0.3
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

    /// The VBV maxrate, in bits per second, of the rung at `framesPerSecond`: at a fixed rate 1.1 × the bitrate;
    /// at constant quality `RateControl.capShare` of it, less the MPEG-TS overhead of each picture
    /// (`RateControl.muxingBytesPerPicture`), so that the measured peak stays within 10 % of the bitrate.
    func maximumBitrate(framesPerSecond: Double) -> Int64 {
        guard crf != nil else { return Int64(Double(bitrate) * TranscodeOptions.maxrateRatio) }
        let overhead = framesPerSecond * Double(RateControl.muxingBytesPerPicture * 8)
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
