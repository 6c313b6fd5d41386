/// Why an uploaded caption file was refused, in words a person can act on.
public struct CaptionError: Error, CustomStringConvertible, Sendable, Equatable {
    private enum Code: Equatable, Sendable {
        case notUTF8
        case unparseable(line: Int, text: String)
        case noCue
        case pastTheEnd(cue: Int, start: Double, duration: Double)
    }

    private let code: Code

    /// The file is not UTF-8 text.
    public static var notUTF8: CaptionError { CaptionError(code: .notUTF8) }
    /// Line `line` is neither WebVTT nor SubRip.
    static func unparseable(line: Int, text: String) -> CaptionError { CaptionError(code: .unparseable(line: line, text: text)) }
    /// The file holds no cue.
    static var noCue: CaptionError { CaptionError(code: .noCue) }
    /// Cue `cue` (counted from 1) starts after the title ends.
    static func pastTheEnd(cue: Int, start: Double, duration: Double) -> CaptionError {
        CaptionError(code: .pastTheEnd(cue: cue, start: start, duration: duration))
    }

    public var description: String {
        switch code {
        case .notUTF8:
            "the caption file is not UTF-8 text"
        case .unparseable(let line, let text):
            "line \(line) of the caption file is not WebVTT or SubRip: \"\(text.prefix(60))\""
        case .noCue:
            "the caption file holds no cue"
        case .pastTheEnd(let cue, let start, let duration):
            "cue \(cue) starts at \(WebVTTWriter.timestamp(start)), after the end of the title at \(WebVTTWriter.timestamp(duration))"
        }
    }
}
