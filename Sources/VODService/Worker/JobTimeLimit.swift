/// How long one transcode may run before it is cancelled and its item failed with a reason.
///
/// By default the limit is proportional to the source's duration, `factor` × its length, kept between `floor`
/// and `cap`; a source of unknown length gets the cap. `vod serve --job-timeout` sets one fixed limit instead.
public struct JobTimeLimit: Sendable, Equatable {
    /// Seconds of transcoding allowed per second of source.
    public static let factor = 10.0
    /// The least time any job gets: 10 minutes.
    public static let floor = Duration.seconds(10 * 60)
    /// The most time any job gets: 6 hours.
    public static let cap = Duration.seconds(6 * 3600)

    /// One limit for every job, or nil for the proportional default.
    public var fixed: Duration?

    public init(fixed: Duration? = nil) {
        self.fixed = fixed
    }

    /// The limit for a source lasting `sourceDuration` seconds.
    public func limit(forSourceDuration sourceDuration: Double?) -> Duration {
        if let fixed { return fixed }
        guard let sourceDuration, sourceDuration > 0, sourceDuration.isFinite else { return Self.cap }
        return min(max(.seconds(sourceDuration * Self.factor), Self.floor), Self.cap)
    }
}

/// A transcode ran past its time limit and was stopped.
struct JobTimedOut: Error, CustomStringConvertible {
    let limit: Duration

    var description: String {
        "it took longer than the \(limit.components.seconds)-second limit for this file and was stopped"
    }
}
