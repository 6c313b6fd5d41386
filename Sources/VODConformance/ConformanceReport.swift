/// One broken rule.
public struct Violation: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The rule broken.
    public let rule: ConformanceRule
    /// The file, relative to the title's folder.
    public let file: String
    /// What is wrong, for a person.
    public let message: String

    public var description: String {
        let reference = rule.reference.map { " [\($0)]" } ?? ""
        return "\(rule.id)\(reference) \(file): \(message)"
    }

    private enum CodingKeys: String, CodingKey {
        case rule, reference, file, message
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule, forKey: .rule)
        try container.encodeIfPresent(rule.reference, forKey: .reference)
        try container.encode(file, forKey: .file)
        try container.encode(message, forKey: .message)
    }
}

/// The outcome of checking a title: every violation, and the numbers measured on the way.
public struct ConformanceReport: Sendable, Encodable {
    /// Every violation found, in the order found.
    public let violations: [Violation]
    /// What was measured: bit rates, PTS ranges, IDR times, SPS values.
    public let measurements: TitleMeasurements

    /// Whether no rule is broken.
    public var isConformant: Bool { violations.isEmpty }

    /// The ids of the rules broken.
    public var brokenRules: Set<ConformanceRule> { Set(violations.map(\.rule)) }

    /// The violations of one rule.
    public func violations(of rule: ConformanceRule) -> [Violation] {
        violations.filter { $0.rule == rule }
    }
}
