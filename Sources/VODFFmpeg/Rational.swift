import CFFmpeg

/// A fraction such as a time base (1/90000) or a frame rate (30000/1001): FFmpeg's `AVRational` as a Swift value.
public struct Rational: Sendable, Hashable {
    /// The numerator.
    public var numerator: Int32
    /// The denominator.
    public var denominator: Int32

    /// The fraction `numerator/denominator`, as given (not reduced).
    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The same fraction as FFmpeg's `AVRational`.
    init(_ rational: AVRational) {
        self.init(rational.num, rational.den)
    }

    /// This fraction as FFmpeg's `AVRational`, for a C field or call.
    var avRational: AVRational { AVRational(num: numerator, den: denominator) }

    /// Whether both terms are above zero, as a real rate or time base is.
    public var isPositive: Bool { numerator > 0 && denominator > 0 }

    /// The fraction's value.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// The fraction turned upside down: a frame rate's time base of one tick per frame.
    public var inverse: Rational { Rational(denominator, numerator) }

    /// The time of `ticks` of this time base, in seconds.
    public func seconds(_ ticks: Int64) -> Double {
        Double(ticks) * Double(numerator) / Double(denominator)
    }

    /// The number of ticks of this time base in `seconds`, rounded to the nearest.
    public func ticks(_ seconds: Double) -> Int64 {
        Int64((seconds * Double(denominator) / Double(numerator)).rounded())
    }

    /// The product of two fractions, reduced as FFmpeg's `av_mul_q` does.
    public func multiplied(by other: Rational) -> Rational {
        Rational(av_mul_q(avRational, other.avRational))
    }

    /// The fraction in lowest terms with neither term above `limit`, as FFmpeg's `av_reduce` gives it.
    public func reduced(limit: Int64 = 1 << 30) -> Rational {
        var reduced = AVRational()
        av_reduce(&reduced.num, &reduced.den, Int64(numerator), Int64(denominator), limit)
        return Rational(reduced)
    }

    /// Converts `value` from this time base to `destination`, rounding as FFmpeg's `av_rescale_q` does.
    public func rescale(_ value: Int64, to destination: Rational) -> Int64 {
        av_rescale_q(value, avRational, destination.avRational)
    }
}
