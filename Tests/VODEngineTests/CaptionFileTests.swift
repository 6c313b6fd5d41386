import Foundation
import Testing
@testable import VODEngine

/// Uploaded WebVTT and SubRip files read into cues as players would read them.
@Suite(.timeLimit(.minutes(2))) struct CaptionFileTests {
    @Test func subRipWithByteOrderMarkAndWindowsLineEnds() throws {
        let text = "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\nFirst line\r\n<i>second</i>\r\n\r\n2\r\n00:01:00,250 --> 00:01:02,000\r\nLater\r\n"
        let file = try CaptionFile(data: Data(text.utf8))
        #expect(file.cues == [
            SubtitleCue(start: 1, end: 2.5, text: "First line\n<i>second</i>"),
            SubtitleCue(start: 60.25, end: 62, text: "Later"),
        ])
    }

    @Test func webVTTSkipsHeaderNotesStylesAndCueSettings() throws {
        let text = """
            WEBVTT - a film

            STYLE
            ::cue { color: yellow }

            NOTE a translator's note

            intro
            00:05.000 --> 00:06.000 align:start line:0
            Short timestamps

            01:00:00.000 --> 01:00:01.000
            An hour in
            """
        let file = try CaptionFile(data: Data(text.utf8))
        #expect(file.cues == [
            SubtitleCue(start: 5, end: 6, text: "Short timestamps"),
            SubtitleCue(start: 3600, end: 3601, text: "An hour in"),
        ])
    }

    @Test func cuesEndingAfterTheTitleAreCutAndThoseStartingAfterItRefused() throws {
        let file = try CaptionFile(data: Data("WEBVTT\n\n00:08.000 --> 00:12.000\nlast words\n".utf8))
        #expect(try file.fitted(to: 10).cues == [SubtitleCue(start: 8, end: 10, text: "last words")])
        #expect(throws: CaptionError.self) { try file.fitted(to: 8) }
    }

    @Test func aBrokenTimingLineIsNamed() {
        let text = "1\n00:00:01,000 -> 00:00:02,000\nhello\n"
        #expect { try CaptionFile(data: Data(text.utf8)) } throws: { error in
            (error as? CaptionError)?.description == #"line 1 of the caption file is not WebVTT or SubRip: "1""#
        }
    }
}
