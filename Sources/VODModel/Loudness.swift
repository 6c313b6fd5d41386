/// An audio track's loudness as EBU R128 measures it (libavfilter's `ebur128` with true peaks), as the media JSON's
/// `tracks[].loudness` gives it.
public struct Loudness: Sendable, Equatable, Codable {
    /// The integrated loudness of the whole track, in LUFS; −70 for silence (R128's absolute gate).
    public var integrated: Double
    /// The loudness range, in LU.
    public var range: Double
    /// The highest true peak of any channel, in dBTP; `Loudness.silentPeak` for digital silence.
    public var truePeak: Double

    /// The true peak given for a track of digital silence, whose peak has no level in decibels.
    public static let silentPeak = -144.0

    /// The keys of a `loudness` object.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case integrated, range
        case truePeak = "true_peak"
    }

    /// A measurement of these values.
    public init(integrated: Double, range: Double, truePeak: Double) {
        self.integrated = integrated
        self.range = range
        self.truePeak = truePeak
    }
}
