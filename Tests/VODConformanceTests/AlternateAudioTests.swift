import Foundation
import Testing
import VODTestSupport
@testable import VODConformance
import VODModel

/// The alternate audio + subtitles title passes, and each test breaks one rule of "Alternate audio" or "Subtitles"
/// in a copy of it and shows the checker names that rule.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct AlternateAudioTests {
    private func copy() throws -> TestTitle { try TestTitle.copy(of: TestTitle.alternateAudio.get()) }

    @Test func alternateAudioTitleIsConformant() throws {
        let report = try TestTitle.alternateAudio.get().check()
        #expect(report.violations.map(\.description) == [])
        #expect(report.measurements.rungs.count == 1)
        #expect(report.measurements.audioRenditions.map(\.audioChannels) == [2, 2, 6])
        #expect(report.measurements.audioRenditions.map { $0.codecs.isEmpty } == [false, false, true])
    }

    @Test func duplicateNameInAGroupIsCaught() throws {
        let title = try copy()
        try title.replace("NAME=\"Français\"", with: "NAME=\"English\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.renditionName])
        #expect(report.violations.first?.message.contains("same NAME") == true)
    }

    @Test func threeLetterOrMalformedLanguageIsCaught() throws {
        let title = try copy()
        try title.replace("LANGUAGE=\"fr\"", with: "LANGUAGE=\"fre\"", in: "master.m3u8")
        try title.replace("NAME=\"English 5.1\",LANGUAGE=\"en\"", with: "NAME=\"English 5.1\",LANGUAGE=\"en_US\"", in: "master.m3u8")
        let messages = title.check().violations(of: .renditionLanguage).map(\.message)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.contains("two-letter \"fr\"") })
        #expect(messages.contains { $0.contains("\"en_US\" is not a well-formed") })
    }

    @Test func renditionWithoutAutoselectIsCaught() throws {
        let title = try copy()
        try title.replace("NAME=\"Français\",LANGUAGE=\"fr\",DEFAULT=NO,AUTOSELECT=YES", with: "NAME=\"Français\",LANGUAGE=\"fr\",DEFAULT=NO", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.audioAttributes])
        #expect(report.violations.first?.message.contains("AUTOSELECT=YES") == true)
    }

    @Test func groupWithoutOrWithTwoDefaultsIsCaught() throws {
        let title = try copy()
        try title.replace("NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES", with: "NAME=\"English\",LANGUAGE=\"en\",DEFAULT=NO", in: "master.m3u8")
        #expect(title.check().violations(of: .audioDefault).map(\.message) == ["audio group \"aac\" has 0 renditions with DEFAULT=YES, not one"])
        try title.replace("LANGUAGE=\"fr\",DEFAULT=NO", with: "LANGUAGE=\"fr\",DEFAULT=YES", in: "master.m3u8")
        #expect(title.brokenRules().isEmpty)
        try title.replace("LANGUAGE=\"en\",DEFAULT=NO", with: "LANGUAGE=\"en\",DEFAULT=YES", in: "master.m3u8")
        #expect(title.brokenRules() == [.audioDefault])
    }

    @Test func wrongOrUnquotedChannelsAreCaught() throws {
        let title = try copy()
        try title.replace("CHANNELS=\"6\"", with: "CHANNELS=\"2\"", in: "master.m3u8")
        try title.replace("DEFAULT=NO,AUTOSELECT=YES,CHANNELS=\"2\"", with: "DEFAULT=NO,AUTOSELECT=YES,CHANNELS=2", in: "master.m3u8")
        let messages = title.check().violations(of: .audioChannels).map(\.message)
        #expect(messages.count == 2)
        #expect(messages.contains { $0.contains("CHANNELS \"2\" but audio_51/index.m3u8 is encoded with 6 channels") })
        #expect(messages.contains { $0.contains("not a quoted decimal") })
    }

    @Test func variantWithoutAnAudioGroupIsCaught() throws {
        let title = try copy()
        try title.replace(",AUDIO=\"ac3\"", with: ",AUDIO=\"dolby\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.violations(of: .audioGroup).first?.message.contains("\"dolby\" names no audio group") == true)
        #expect(report.brokenRules.contains(.audioSurround))
    }

    @Test func codecsWithoutTheGroupsAudioCodecAreCaught() throws {
        let title = try copy()
        try title.replace(",ac-3\"", with: ",mp4a.40.2\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.audioCodecs])
        #expect(report.violations.first?.message.contains(",ac-3\"") == true)
    }

    @Test func bandwidthOfTheVideoAloneIsCaught() throws {
        let title = try copy()
        let video = try title.bitRates(title.rungs[0])
        let master = try title.text("master.m3u8")
        let line = try #require(master.split(separator: "\n").first { $0.contains("AUDIO=\"aac\"") })
        let declared = try #require(line.firstMatch(of: /BANDWIDTH=(\d+),AVERAGE-BANDWIDTH=(\d+)/))
        try title.replace("BANDWIDTH=\(declared.1),AVERAGE-BANDWIDTH=\(declared.2)",
                          with: "BANDWIDTH=\(Int(video.peak * 1.02)),AVERAGE-BANDWIDTH=\(Int(video.average))", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.audioBandwidth])
        #expect(report.violations(of: .audioBandwidth).count == 2)
    }

    @Test func audioPlaylistWithAnotherTargetDurationIsCaught() throws {
        let title = try copy()
        try title.replace("#EXT-X-TARGETDURATION:6", with: "#EXT-X-TARGETDURATION:7", in: "audio_fr/index.m3u8")
        let report = title.check()
        #expect(report.violations(of: .audioTargetDuration).map(\.message) == ["TARGETDURATION 7 differs from 6 in 240p/index.m3u8"])
    }

    @Test func audioPlaylistWithFewerSegmentsIsCaught() throws {
        let title = try copy()
        let text = try title.text("audio_fr/index.m3u8")
        let lines = text.split(separator: "\n").map(String.init)
        let extinf = try #require(lines.lastIndex { $0.hasPrefix("#EXTINF") })
        try title.write((lines[..<extinf] + lines[(extinf + 2)...]).joined(separator: "\n") + "\n", to: "audio_fr/index.m3u8")
        #expect(title.check().violations(of: .audioSegmentCount).map(\.message) == ["1 segments, 240p/index.m3u8 has 2"])
    }

    @Test func audioSegmentsCoveringOtherTimesAreCaught() throws {
        let title = try copy()
        try title.replace("segment_001.ts", with: "segment_000.ts", in: "audio_en/index.m3u8")
        let report = title.check()
        #expect(report.violations(of: .audioSegmentAlignment).first?.message.contains("first being segment 1") == true)
    }

    @Test func videoInAnAudioRenditionIsCaught() throws {
        let title = try copy()
        try title.replace("segment_000.ts", with: "../240p/segment_000.ts", in: "audio_fr/index.m3u8")
        let violations = title.check().violations(of: .audioOnly)
        #expect(violations.map(\.file) == ["240p/segment_000.ts"])
        #expect(violations.first?.message.contains("0x1b") == true)
    }

    @Test func audioMuxedIntoTheVideoIsCaught() throws {
        let title = try copy()
        let muxed = title.url("240p/muxed.ts").path
        _ = try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", title.url("240p/segment_000.ts").path,
                               "-i", title.url("audio_en/segment_000.ts").path, "-map", "0", "-map", "1", "-c", "copy",
                               "-copyts", "-muxdelay", "0", muxed])
        try FileManager.default.moveItem(atPath: muxed, toPath: title.url("240p/segment_000.ts").path + ".new")
        try FileManager.default.removeItem(at: title.url("240p/segment_000.ts"))
        try FileManager.default.moveItem(atPath: title.url("240p/segment_000.ts").path + ".new", toPath: title.url("240p/segment_000.ts").path)
        let report = title.check()
        #expect(report.violations(of: .audioDemuxed).map(\.file) == ["240p/index.m3u8"])
    }

    @Test func titleWithoutAStereoAACGroupIsCaught() throws {
        let title = try copy()
        try title.replace("URI=\"audio_fr/index.m3u8\"", with: "URI=\"audio_51/index.m3u8\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.violations(of: .audioStereo).count == 1)
        #expect(report.violations(of: .audioChannels).count == 1)
    }

    @Test func surroundGroupWithoutItsOwnVariantsIsCaught() throws {
        let title = try copy()
        let lines = try title.text("master.m3u8").split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("AUDIO=\"ac3\"") })
        try title.write((lines[..<index] + lines[(index + 2)...]).joined(separator: "\n") + "\n", to: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.audioSurround])
        #expect(report.violations.first?.message.contains("naming audio group \"ac3\" point at []") == true)
    }

    @Test func subtitlesWithoutLanguageIsCaught() throws {
        let title = try copy()
        try title.replace("GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",", with: "GROUP-ID=\"subs\",NAME=\"English\",", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.subtitlesAttributes])
        #expect(report.violations.first?.message.hasSuffix("lacks LANGUAGE") == true)
    }

    @Test func twoDefaultSubtitlesAreCaught() throws {
        let title = try copy()
        let english = "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=NO"
        try title.replace(english, with: english.replacingOccurrences(of: "DEFAULT=NO", with: "DEFAULT=YES"), in: "master.m3u8")
        #expect(title.brokenRules().isEmpty)
        let second = try #require(try title.text("master.m3u8").split(separator: "\n").first { $0.contains("TYPE=SUBTITLES") })
        try title.replace(String(second), with: second + "\n" + second.replacingOccurrences(of: "NAME=\"English\"", with: "NAME=\"English (SDH)\""), in: "master.m3u8")
        #expect(title.check().violations(of: .subtitlesDefault).map(\.message) == ["subtitles group \"subs\" has 2 renditions with DEFAULT=YES, more than one"])
    }

    @Test func forcedOtherThanYesOrNoIsCaught() throws {
        let title = try copy()
        try title.replace("FORCED=NO", with: "FORCED=TRUE", in: "master.m3u8")
        #expect(title.brokenRules() == [.subtitlesForced])
    }

    @Test func variantWithoutTheSubtitlesGroupIsCaught() throws {
        let title = try copy()
        try title.replace("AUDIO=\"aac\",SUBTITLES=\"subs\"", with: "AUDIO=\"aac\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.subtitlesGroup])
        #expect(report.violations.first?.message.hasSuffix("SUBTITLES is missing") == true)
    }

    @Test func subtitlesPlaylistWithAnotherTargetDurationIsCaught() throws {
        let title = try copy()
        try title.replace("#EXT-X-TARGETDURATION:6", with: "#EXT-X-TARGETDURATION:7", in: "subs_en/index.m3u8")
        #expect(title.check().violations(of: .subtitlesTargetDuration).map(\.file) == ["subs_en/index.m3u8"])
    }

    @Test func subtitlesBoundariesOffTheVideoAreCaught() throws {
        let title = try copy()
        try title.replace("#EXTINF:6.000000,", with: "#EXTINF:5.000000,", in: "subs_en/index.m3u8")
        try title.replace("#EXTINF:2.000000,", with: "#EXTINF:3.000000,", in: "subs_en/index.m3u8")
        let report = title.check()
        #expect(report.violations(of: .subtitlesSegmentAlignment).first?.message.contains("first being segment 0") == true)
    }

    @Test func segmentThatIsNotWebVTTIsCaught() throws {
        let title = try copy()
        try title.replace("WEBVTT\n", with: "WEBVTT FILE\n", in: "subs_en/segment_0.vtt")
        #expect(title.brokenRules().isEmpty)
        try title.replace("WEBVTT FILE\n", with: "WEB VTT\n", in: "subs_en/segment_0.vtt")
        try title.replace("00:00:07.000\nThis", with: "00:00:7.000\nThis", in: "subs_en/segment_1.vtt")
        let violations = title.check().violations(of: .subtitlesWebVTT)
        #expect(violations.map(\.file) == ["subs_en/segment_0.vtt", "subs_en/segment_1.vtt"])
        #expect(violations.last?.message.contains("cue timing") == true)
    }

    @Test func missingOrWrongTimestampMapIsCaught() throws {
        let title = try copy()
        let pts = try title.firstVideoPTS()
        try title.replace("X-TIMESTAMP-MAP=MPEGTS:\(pts),LOCAL:00:00:00.000\n", with: "", in: "subs_en/segment_0.vtt")
        try title.replace("MPEGTS:\(pts)", with: "MPEGTS:\(pts + 90_000)", in: "subs_en/segment_1.vtt")
        let messages = title.check().violations(of: .subtitlesTimestampMap).map(\.message)
        #expect(messages == ["the header has no X-TIMESTAMP-MAP", "X-TIMESTAMP-MAP MPEGTS:\(pts + 90_000) is not the video's first PTS \(pts)"])
    }

    @Test func cueSpanningABoundaryInOneSegmentOnlyIsCaught() throws {
        let title = try copy()
        try title.replace("\n00:00:05.000 --> 00:00:07.000\nThis cue spans the boundary.\n", with: "", in: "subs_en/segment_1.vtt")
        let violations = title.check().violations(of: .subtitlesCueSplit)
        #expect(violations.map(\.file) == ["subs_en/segment_1.vtt"])
        #expect(violations.first?.message.contains("5.000 --> 7.000") == true)
    }

    @Test func webVTTParsing() {
        let empty = WebVTTSegment(bytes: Array("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n".utf8))
        #expect(empty.hasHeader && empty.cues.isEmpty && empty.problems.isEmpty && empty.mpegts == 126_000 && empty.local == 0)
        let cues = WebVTTSegment(bytes: Array("WEBVTT\n\nNOTE a note\n\nid\n01:02.500 --> 01:00:00.000 align:start\nA\nB\n".utf8))
        #expect(cues.cues == [WebVTTSegment.Cue(start: 62.5, end: 3600, text: "A\nB")])
        #expect(cues.problems.isEmpty)
    }

    @Test func languageTags() {
        for good in ["en", "fr", "pt-BR", "zh-Hant-TW", "es-419", "sgn-ase", "x-klingon", "de-CH-1996", "mul", "und"] {
            #expect(LanguageTag.problem(good) == nil, "\(good)")
        }
        for bad in ["eng", "fre", "fra", "ger", "en_US", "", "e", "en-", "toolongtag", "en-US-x"] {
            #expect(LanguageTag.problem(bad) != nil, "\(bad)")
        }
    }
}
