/// A rung as it will be encoded for one source: its output size follows the source's orientation.
public struct PlannedRung: Sendable, Equatable, Codable {
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
}

/// Decides which rungs a source gets and at what size.
///
/// A rung's short side is its "p" number. Rungs taller than the source are dropped (never upscale). A source
/// below the smallest rung gets one rung at its own size. Sizes keep the display aspect ratio and are even.
public enum LadderPlanner {
    /// Plans `ladder` for a source shown at `displayWidth` × `displayHeight` (rotation and pixel aspect applied).
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
