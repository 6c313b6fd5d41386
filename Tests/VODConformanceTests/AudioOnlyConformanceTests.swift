import Foundation
import Testing
import VODTestSupport
@testable import VODConformance

/// An audio-only title passes without any video rule, and each test breaks one rule that still applies to it.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct AudioOnlyConformanceTests {
    private func copy() throws -> TestTitle { try TestTitle.copy(of: TestTitle.audioOnly.get()) }

    @Test func audioOnlyTitleIsConformant() throws {
        let report = try TestTitle.audioOnly.get().check()
        #expect(report.violations.map(\.description) == [])
        #expect(report.measurements.rungs.isEmpty)
        #expect(report.measurements.audioRenditions.map(\.audioChannels) == [2, 2])
    }

    @Test func bandwidthOfTheSmallerRenditionIsCaught() throws {
        let title = try copy()
        let english = try title.bitRates(RungSpec(name: "audio_en", width: 0, height: 0))
        let master = try title.text("master.m3u8")
        let line = try #require(master.split(separator: "\n").first { $0.hasPrefix("#EXT-X-STREAM-INF:") })
        try title.replace(String(line), with: "#EXT-X-STREAM-INF:BANDWIDTH=\(Int(english.peak.rounded(.up))),"
            + "AVERAGE-BANDWIDTH=\(Int(english.average.rounded(.up))),CODECS=\"mp4a.40.2\",AUDIO=\"aac\"", in: "master.m3u8")
        let report = title.check()
        #expect(report.brokenRules == [.masterBandwidth, .masterAverageBandwidth], "the French rendition is larger")
    }

    @Test func wrongAudioCodecIsCaught() throws {
        let title = try copy()
        try title.replace("CODECS=\"mp4a.40.2\"", with: "CODECS=\"mp4a.40.5\"", in: "master.m3u8")
        #expect(title.check().brokenRules == [.audioCodecs])
    }

    @Test func playlistDurationThatIsNotTheAudiosIsCaught() throws {
        let title = try copy()
        let playlist = try title.text("audio_en/index.m3u8")
        let first = try #require(playlist.split(separator: "\n").first { $0.hasPrefix("#EXTINF:") })
        try title.replace(String(first), with: "#EXTINF:5.000000,", in: "audio_en/index.m3u8")
        let violations = title.check().violations(of: .mediaDuration)
        #expect(violations.map(\.file) == ["audio_en/index.m3u8"])
        #expect(violations.first?.message.contains("but the audio lasts") == true)
    }
}
