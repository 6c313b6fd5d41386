/// 33-bit MPEG timestamps in 90 kHz ticks.
enum Timestamp {
    static let ticksPerSecond = 90_000.0
    private static let wrap: Int64 = 1 << 33

    /// `value` moved by whole 2^33 wraps to lie nearest `reference`.
    static func unwrap(_ value: Int64, near reference: Int64) -> Int64 {
        var result = value
        while result - reference > wrap / 2 { result -= wrap }
        while reference - result > wrap / 2 { result += wrap }
        return result
    }

    static func seconds(_ ticks: Int64) -> Double { Double(ticks) / ticksPerSecond }
}
