/// Sizes written as people write them: `1048576`, `500K`, `500M`, `10G` (powers of 1024).
enum ByteSize {
    static func parse(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("B"), digits.count > 1 { digits = digits.dropLast() }
        var multiplier: Int64 = 1
        if let last = digits.last, let unit = units[last] {
            multiplier = unit
            digits = digits.dropLast()
        }
        guard let value = Int64(digits), value >= 0 else { return nil }
        let (size, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : size
    }
}
