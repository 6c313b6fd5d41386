import Foundation

/// An uploaded WebVTT or SubRip file, read into cues: WebVTT's NOTE, STYLE and REGION blocks and cue settings are
/// left out, SubRip's `<font>` tags are dropped, and the text of each cue is kept line by line.
public struct CaptionFile: Sendable {
    /// The cues, in the order of the file.
    let cues: [SubtitleCue]

    /// Reads `data`, which may start with a UTF-8 byte order mark and use CRLF line ends.
    public init(data: Data) throws(CaptionError) {
        guard var text = String(data: data, encoding: .utf8) else { throw .notUTF8 }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let isWebVTT = lines.first.map { $0 == "WEBVTT" || $0.hasPrefix("WEBVTT ") || $0.hasPrefix("WEBVTT\t") } ?? false
        cues = try Self.cues(in: lines, skippingHeader: isWebVTT)
        guard !cues.isEmpty else { throw .noCue }
    }

    /// Checks that every cue starts before `duration`, the title's length in seconds, and cuts those that end
    /// after it.
    public func fitted(to duration: Double) throws(CaptionError) -> CaptionFile {
        if let late = cues.firstIndex(where: { $0.start >= duration }) {
            throw .pastTheEnd(cue: late + 1, start: cues[late].start, duration: duration)
        }
        return CaptionFile(cues: cues.map { SubtitleCue(start: $0.start, end: min($0.end, duration), text: $0.text) })
    }

    private init(cues: [SubtitleCue]) {
        self.cues = cues
    }

    /// Blocks separated by blank lines: a cue is an optional identifier line, a timing line and its text.
    private static func cues(in lines: [String], skippingHeader: Bool) throws(CaptionError) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        var index = 0
        if skippingHeader {
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
        }
        while index < lines.count {
            guard !lines[index].trimmingCharacters(in: .whitespaces).isEmpty else {
                index += 1
                continue
            }
            var block: [(number: Int, text: String)] = []
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                block.append((index + 1, lines[index]))
                index += 1
            }
            if skippingHeader, let first = block.first?.text, ["NOTE", "STYLE", "REGION"].contains(where: { first == $0 || first.hasPrefix($0 + " ") || first.hasPrefix($0 + "\t") }) {
                continue
            }
            guard let timing = block.prefix(2).firstIndex(where: { $0.text.contains("-->") }) else {
                throw .unparseable(line: block[0].number, text: block[0].text)
            }
            guard let (start, end) = times(block[timing].text) else {
                throw .unparseable(line: block[timing].number, text: block[timing].text)
            }
            let text = block[(timing + 1)...].map { withoutFontTags($0.text) }.filter { !$0.isEmpty }.joined(separator: "\n")
            if end > start, !text.isEmpty { cues.append(SubtitleCue(start: start, end: end, text: text)) }
        }
        return cues
    }

    /// `00:00:01,000 --> 00:00:02.500 position:10%`: the two times in seconds.
    private static func times(_ line: String) -> (Double, Double)? {
        let parts = line.components(separatedBy: "-->")
        guard parts.count == 2, let start = seconds(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
        let rest = parts[1].trimmingCharacters(in: .whitespaces)
        guard let end = seconds(String(rest.prefix { !$0.isWhitespace })) else { return nil }
        return (start, end)
    }

    /// `hh:mm:ss.ttt`, `mm:ss.ttt` or SubRip's `hh:mm:ss,ttt`.
    private static func seconds(_ text: String) -> Double? {
        let fields = text.replacingOccurrences(of: ",", with: ".").split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count) else { return nil }
        let numbers = fields.map { Double($0) }
        guard numbers.allSatisfy({ $0 != nil && $0! >= 0 }),
              fields.dropLast().allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return nil }
        return numbers.reduce(0) { $0 * 60 + $1! }
    }

    /// SubRip players accept `<font color=…>`; WebVTT has no such tag.
    private static func withoutFontTags(_ line: String) -> String {
        line.replacingOccurrences(of: "</?font[^>]*>", with: "", options: [.regularExpression, .caseInsensitive])
            .trimmingCharacters(in: .whitespaces)
    }
}
