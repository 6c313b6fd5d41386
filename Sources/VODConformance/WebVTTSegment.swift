import Foundation

/// A WebVTT subtitle segment as HLS serves it: the header, its `X-TIMESTAMP-MAP`, and the cues.
///
/// Parsing never traps: what does not follow the WebVTT syntax is reported in ``problems``.
public struct WebVTTSegment: Sendable {
    /// One cue: its times in seconds on the file's local timeline, and its text.
    public struct Cue: Sendable, Equatable {
        /// Start time in seconds.
        public let start: Double
        /// End time in seconds.
        public let end: Double
        /// The cue's text lines joined with newlines.
        public let text: String
    }

    /// Whether the file's first line is `WEBVTT`, alone or followed by a space or a tab and more text.
    public private(set) var hasHeader = false
    /// The `X-TIMESTAMP-MAP` header line's value, when there is one.
    public private(set) var timestampMap: String?
    /// The `MPEGTS` value of `X-TIMESTAMP-MAP`, when it is an integer.
    public private(set) var mpegts: Int64?
    /// The `LOCAL` value of `X-TIMESTAMP-MAP` in seconds, when it is a WebVTT timestamp.
    public private(set) var local: Double?
    /// The cues in file order.
    public private(set) var cues: [Cue] = []
    /// Cue blocks that do not parse, and other syntax problems.
    public private(set) var problems: [String] = []

    /// Parses the bytes of a `.vtt` file.
    public init(bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            problems.append("the file is not UTF-8 text")
            return
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.last == "\r" ? $0.dropLast() : $0 }
        let first = lines.first ?? ""
        hasHeader = first == "WEBVTT" || first.hasPrefix("WEBVTT ") || first.hasPrefix("WEBVTT\t")
        var blocks: [[Substring]] = [[]]
        for line in lines {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if blocks.last?.isEmpty == false { blocks.append([]) }
            } else {
                blocks[blocks.count - 1].append(line)
            }
        }
        blocks.removeAll(where: \.isEmpty)
        guard let header = blocks.first else { return }
        for line in header.dropFirst() where line.hasPrefix("X-TIMESTAMP-MAP=") {
            readTimestampMap(String(line.dropFirst("X-TIMESTAMP-MAP=".count)))
        }
        for block in blocks.dropFirst() { readBlock(block) }
    }

    private mutating func readTimestampMap(_ value: String) {
        timestampMap = value
        for part in value.split(separator: ",") {
            if part.hasPrefix("MPEGTS:") {
                mpegts = Int64(part.dropFirst(7)).flatMap { $0 >= 0 ? $0 : nil }
            } else if part.hasPrefix("LOCAL:") {
                local = Self.seconds(part.dropFirst(6))
            }
        }
    }

    private mutating func readBlock(_ block: [Substring]) {
        guard let head = block.first else { return }
        if head.hasPrefix("NOTE") || head == "STYLE" || head == "REGION" { return }
        guard let timing = block.prefix(2).firstIndex(where: { $0.contains("-->") }) else {
            problems.append("block \"\(head.prefix(40))\" has no cue timing line")
            return
        }
        let parts = block[timing].components(separatedBy: "-->")
        let startText = parts[0].trimmingCharacters(in: .whitespaces)
        let endText = parts.count == 2 ? String(parts[1].trimmingCharacters(in: .whitespaces).prefix { $0 != " " && $0 != "\t" }) : ""
        guard let start = Self.seconds(startText[...]), let end = Self.seconds(endText[...]), end > start else {
            problems.append("cue timing \"\(block[timing])\" is not start --> end with valid timestamps, end after start")
            return
        }
        cues.append(Cue(start: start, end: end, text: block[(timing + 1)...].joined(separator: "\n")))
    }

    /// A WebVTT timestamp, `[hh:]mm:ss.ttt` (hours of two or more digits), in seconds.
    static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let last = parts.last else { return nil }
        let fields = last.split(separator: ".", omittingEmptySubsequences: false)
        let units = parts.dropLast().map(String.init) + fields.map(String.init)
        guard fields.count == 2, fields[1].count == 3, units.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts.dropLast().last?.count == 2, fields[0].count == 2, parts.count == 2 || parts[0].count >= 2,
              let seconds = Int(fields[0]), let minutes = Int(parts[parts.count - 2]), seconds < 60, minutes < 60,
              let millis = Int(fields[1]) else { return nil }
        let hours = parts.count == 3 ? Int(parts[0]) ?? 0 : 0
        return Double(hours * 3600 + minutes * 60 + seconds) + Double(millis) / 1000
    }
}
