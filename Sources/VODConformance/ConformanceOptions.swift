/// The project's choices that the rules leave as parameters.
public struct ConformanceOptions: Sendable {
    /// The longest allowed distance between IDR pictures, in seconds.
    public var keyframeInterval: Double
    /// The largest allowed TARGETDURATION, in seconds.
    public var targetDuration: Int
    /// The highest allowed frame rate.
    public var maximumFrameRate: Double

    /// The project defaults: IDR every 2 s, 6 s target duration, at most 60 fps.
    public init(keyframeInterval: Double = 2, targetDuration: Int = 6, maximumFrameRate: Double = 60) {
        self.keyframeInterval = keyframeInterval
        self.targetDuration = targetDuration
        self.maximumFrameRate = maximumFrameRate
    }
}
