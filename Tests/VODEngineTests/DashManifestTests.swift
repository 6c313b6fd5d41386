import Foundation
import Testing
@testable import VODEngine
import VODTestSupport

/// The DASH manifest of an fMP4 title describes its HLS segments: a structurally valid MPD (checked in Python,
/// Debian shipping no DASH schema), whose every SegmentTimeline is its media playlist's EXTINF list, which
/// ffmpeg's dash demuxer plays.
@Suite("DASH manifest", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(5)))
struct DashManifestTests {
    @Test func theManifestDescribesTheHLSSegmentsAndPlays() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 640, height: 360, duration: 7).make(in: directory.url)
        let result = try await Transcoder(options: TranscodeOptions(ladder: FragmentedSegmentTests.ladder, preset: "superfast",
                                                                    segmentFormat: .fmp4))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
        let folder = result.masterPlaylist.deletingLastPathComponent()
        let manifest = folder.appendingPathComponent(DashManifest.file)
        let timelines = try await Self.timelines(of: manifest.path)
        #expect(timelines.keys.sorted() == ["240p", "360p", "audio_0"], "each rung and the audio rendition")
        for (rung, durations) in timelines {
            let playlist = try String(contentsOf: folder.appendingPathComponent("\(rung)/index.m3u8"), encoding: .utf8)
            let extinf = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
                .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",")[0]) }
            #expect(durations == extinf, "\(rung): the SegmentTimeline is the playlist's EXTINF, segment for segment")
        }
        let play = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", manifest.path, "-map", "0", "-f", "null", "-"])
        #expect(play.status == 0 && play.standardError.isEmpty, "ffmpeg's dash demuxer: \(play.standardError)")
        let ts = try await Transcoder(options: TranscodeOptions(ladder: FragmentedSegmentTests.ladder, preset: "superfast"))
            .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("ts").path)
        #expect(!FileManager.default.fileExists(atPath: ts.masterPlaylist.deletingLastPathComponent()
            .appendingPathComponent(DashManifest.file).path), "no DASH for MPEG-TS")
    }

    /// The structural check of an MPD, in Python: the DASH namespace, a static live-profile MPD with a duration, every
    /// Representation with an id, a bandwidth and a SegmentTemplate naming its init segment and numbered segments,
    /// and the segment durations of each SegmentTimeline in seconds, by Representation id.
    static func timelines(of path: String) async throws -> [String: [Double]] {
        let script = #"""
            import json, re, sys, xml.etree.ElementTree as ET
            D = '{urn:mpeg:dash:schema:mpd:2011}'
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == D + 'MPD' and root.get('type') == 'static', root.tag
            assert 'urn:mpeg:dash:profile:isoff-live:2011' in root.get('profiles').split(',')
            assert re.fullmatch(r'PT[0-9]+(\.[0-9]+)?S', root.get('mediaPresentationDuration'))
            timelines = {}
            for adaptation in root.iter(D + 'AdaptationSet'):
                assert adaptation.get('contentType') in ('video', 'audio', 'text') and adaptation.get('mimeType')
                for representation in adaptation.iter(D + 'Representation'):
                    assert representation.get('id') and int(representation.get('bandwidth')) > 0
                    template = representation.find(D + 'SegmentTemplate')
                    assert '$Number' in template.get('media')
                    if adaptation.get('contentType') != 'text':
                        assert template.get('initialization').endswith('init.mp4')
                    scale = int(template.get('timescale'))
                    timelines[representation.get('id')] = [int(s.get('d')) / scale for s in template.find(D + 'SegmentTimeline')
                                                           for _ in range(int(s.get('r', '0')) + 1)]
            print(json.dumps(timelines))
            """#
        let output = try await ExternalTool.require("python3", ["-c", script, path])
        return try JSONDecoder().decode([String: [Double]].self, from: Data(output.standardOutput.utf8))
    }
}
