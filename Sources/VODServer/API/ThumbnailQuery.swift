import Hummingbird

/// The query of `GET /api/media/:id/thumbnail.jpg`: `time` in seconds (required, ≥ 0) and `width` in pixels
/// (an integer from 16 to 1920, 320 when absent). Anything else is a 400. What is shown is snapped
/// (`ThumbnailSource.snap`): the nearest keyframe, the next of `Thumbnail.widths`.
struct ThumbnailQuery: Sendable, Equatable {
    static let widths = 16...1920
    static let defaultWidth = 320

    var time: Double
    var width: Int

    init(time: Double, width: Int) {
        self.time = time
        self.width = width
    }

    init(_ query: Parameters) throws {
        guard let text = query["time"], let time = Double(text), time.isFinite, time >= 0 else {
            throw APIError.badRequest("'time' must be a number of seconds from 0 to the duration")
        }
        var width = Self.defaultWidth
        if let text = query["width"] {
            guard let value = Int(text), Self.widths.contains(value) else {
                throw APIError.badRequest("'width' must be an integer from \(Self.widths.lowerBound) to \(Self.widths.upperBound)")
            }
            width = value
        }
        self.init(time: time, width: width)
    }
}
