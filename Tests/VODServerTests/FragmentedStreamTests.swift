import Foundation
import Testing
import VODCatalog
import VODConformance
import VODTestSupport

/// `vod serve --segment-format fmp4`: an upload is stored as an fMP4 title, transcoded in fMP4 (CMAF) segments and
/// served with their content types, and every variant plays over HTTP.
@Suite(.serialized, .tags(.ffmpeg, .gstreamer, .browser, .processes), .needsExternalTools, .timeLimit(.minutes(10)))
struct FragmentedStreamTests {
    @Test func anFMP4UploadIsServedAndPlaysOverHTTP() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 7).make(in: test.directory.url)
        // superfast rather than the tests' ultrafast: its Baseline profile is against the rules `vod validate` checks.
        let server = try ServerProcess(library: test, arguments: ["--segment-format", "fmp4", "--preset", "superfast"])
        try await server.waitUntilListening()
        let item = try await test.uploadUntilTranscoded(clip, title: "CMAF", to: server.url)
        #expect(item.segmentFormat == .fmp4)
        let media = try await ExternalTool.require("curl", ["-sf", "\(server.url)/api/media/\(item.id)"]).standardOutput
        let json = try #require(try JSONSerialization.jsonObject(with: Data(media.utf8)) as? [String: Any])
        #expect(json["segment_format"] as? String == "fmp4")
        #expect(json["poster_url"] is String, "stills are taken from the fMP4 segments")

        let folder = URL(fileURLWithPath: try #require(item.hlsPath))
        #expect(HLSConformance.check(masterURL: folder.appendingPathComponent("master.m3u8")).violations.map(\.description) == [])
        let stream = "\(server.url)/api/media/\(item.id)/stream"
        for (path, type) in [("240p/init.mp4", "video/mp4"), ("240p/segment_000.m4s", "video/iso.segment")] {
            let head = try await ExternalTool.require("curl", ["-sfI", "\(stream)/\(path)"]).standardOutput.lowercased()
            #expect(head.contains("content-type: \(type)"), "\(path): \(head)")
        }
        let playlist = try await ExternalTool.require("curl", ["-sf", "\(stream)/240p/index.m3u8"]).standardOutput
        #expect(playlist.contains(#"#EXT-X-MAP:URI="init.mp4""#))
        let programs = try await IndependentPlayers.programCount(master: stream)
        #expect(programs == 2)
        for program in 0..<programs {
            #expect(try await IndependentPlayers.decodeErrors(master: stream, program: program) == "", "program \(program)")
        }
        let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
        #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
        // Chromium's own HLS, which the console's player uses, plays the fMP4 master as it plays an MPEG-TS one.
        try await LiveServerTests.expectChromiumPlays(stream, picture: true)

        // DASH over the same segments: ffmpeg's dash demuxer and GStreamer's dashdemux play the manifest.
        let dash = "\(server.url)/api/media/\(item.id)/manifest.mpd"
        #expect(json["dash_url"] as? String == dash)
        let head = try await ExternalTool.require("curl", ["-sfI", dash]).standardOutput.lowercased()
        #expect(head.contains("content-type: application/dash+xml"), "\(head)")
        let ffmpeg = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", dash, "-map", "0", "-f", "null", "-"])
        #expect(ffmpeg.status == 0 && ffmpeg.standardError.isEmpty, "\(ffmpeg.standardError)")
        let dashdemux = try await IndependentPlayers.gstreamerPlay(uri: dash)
        #expect(dashdemux.status == 0, "\(dashdemux.standardError)")

        // An MPEG-TS title has no DASH manifest, and says why.
        let ts = try await test.catalog.insert(NewMedia(title: "TS", description: nil, sourceFileName: "a.mp4", sourcePath: clip,
                                                        sourceSize: 1, duration: 7, probeJSON: nil))
        let refused = try await ExternalTool.run("curl", ["-s", "-w", "\n%{http_code}", "\(server.url)/api/media/\(ts.id)/manifest.mpd"])
        #expect(refused.standardOutput.hasSuffix("\n404") && refused.standardOutput.contains("MPEG-TS"), "\(refused.standardOutput)")
        #expect(try await server.stop(SIGTERM) == 0)
    }

    /// `--codecs h264,hevc`: the title's HEVC twins are listed in the media JSON with their CODECS, decode over HTTP
    /// as HLS variants, get an adaptation set of their own in the DASH manifest, and play in GStreamer over HLS
    /// and DASH.
    @Test func anHEVCLadderIsServedBesideTheH264OneOverHLSAndDASH() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 5).make(in: test.directory.url)
        let server = try ServerProcess(library: test, arguments: ["--segment-format", "fmp4", "--preset", "superfast",
                                                                  "--codecs", "h264,hevc", "--hevc-preset", "ultrafast"])
        try await server.waitUntilListening()
        let item = try await test.uploadUntilTranscoded(clip, title: "HEVC", to: server.url)
        let folder = URL(fileURLWithPath: try #require(item.hlsPath))
        #expect(HLSConformance.check(masterURL: folder.appendingPathComponent("master.m3u8")).violations.map(\.description) == [])
        let codecs = try await Self.variants("codecs", of: item, at: server)
        #expect(codecs.keys.sorted() == ["180p", "180p-hevc", "240p", "240p-hevc"])
        #expect(codecs.allSatisfy { $0.value.hasPrefix($0.key.hasSuffix("-hevc") ? "hvc1.1.6.L" : "avc1.") }, "\(codecs)")

        let stream = "\(server.url)/api/media/\(item.id)/stream"
        let programs = try await IndependentPlayers.programCount(master: stream)
        #expect(programs == 4)
        for program in 0..<programs {
            #expect(try await IndependentPlayers.decodeErrors(master: stream, program: program) == "", "program \(program)")
        }
        // GStreamer's hlsdemux2 cannot switch codecs mid-stream (its caps are not renegotiated), so each codec's
        // variant is played on its own.
        for rung in ["240p", "240p-hevc"] {
            let hls = try await IndependentPlayers.gstreamerPlay(uri: "\(stream)/\(rung)/index.m3u8")
            #expect(hls.status == 0, "\(rung): \(hls.standardError)")
        }

        let dash = "\(server.url)/api/media/\(item.id)/manifest.mpd"
        let manifest = try await ExternalTool.require("curl", ["-sf", dash]).standardOutput
        #expect(manifest.matches(of: /<AdaptationSet[^>]*contentType="video"/).count == 2)
        let ffmpeg = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", dash, "-map", "0", "-f", "null", "-"])
        #expect(ffmpeg.status == 0 && ffmpeg.standardError.isEmpty, "\(ffmpeg.standardError)")
        let dashdemux = try await IndependentPlayers.gstreamerPlay(uri: dash)
        #expect(dashdemux.status == 0, "\(dashdemux.standardError)")
        #expect(try await server.stop(SIGTERM) == 0)
    }

    /// An HDR10 upload in fMP4: the media JSON says each variant's range, the HDR rung (which joins the master of
    /// the title published as it grows after the SDR ones) decodes over HTTP beside them, and the DASH manifest
    /// gives it an adaptation set of its own that ffmpeg and GStreamer read.
    @Test func anHDRUploadIsServedWithItsHDRRungOverHLSAndDASH() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip.hdr(transfer: "smpte2084", width: 320, height: 240, duration: 5).make(in: test.directory.url)
        let server = try ServerProcess(library: test, arguments: ["--segment-format", "fmp4", "--preset", "superfast"])
        try await server.waitUntilListening()
        let item = try await test.uploadUntilTranscoded(clip, title: "HDR10", to: server.url)
        let folder = URL(fileURLWithPath: try #require(item.hlsPath))
        #expect(HLSConformance.check(masterURL: folder.appendingPathComponent("master.m3u8")).violations.map(\.description) == [])
        let ranges = try await Self.variants("video_range", of: item, at: server)
        #expect(ranges == ["180p": "SDR", "240p": "SDR", "240p-hdr": "PQ"])

        let stream = "\(server.url)/api/media/\(item.id)/stream"
        let programs = try await IndependentPlayers.programCount(master: stream)
        #expect(programs == 3)
        for program in 0..<programs {
            #expect(try await IndependentPlayers.decodeErrors(master: stream, program: program) == "", "program \(program)")
        }
        let dash = "\(server.url)/api/media/\(item.id)/manifest.mpd"
        let ffmpeg = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", dash, "-map", "0", "-f", "null", "-"])
        #expect(ffmpeg.status == 0 && ffmpeg.standardError.isEmpty, "\(ffmpeg.standardError)")
        let dashdemux = try await IndependentPlayers.gstreamerPlay(uri: dash)
        #expect(dashdemux.status == 0, "\(dashdemux.standardError)")
        #expect(try await server.stop(SIGTERM) == 0)
    }

    /// An HLG upload on the defaults (MPEG-TS): its HDR rung is the one fMP4 rendition, beside the TS ladder in
    /// the same master, every variant decodes over HTTP and Chromium plays the master; the title has no DASH
    /// manifest, and says why.
    @Test func anHDRUploadOnTheDefaultsGetsItsHDRRungInFMP4BesideTheTSLadder() async throws {
        let test = try TestLibrary()
        let clip = try await SyntheticClip.hdr(transfer: "arib-std-b67", width: 320, height: 240, duration: 3).make(in: test.directory.url)
        let server = try ServerProcess(library: test, arguments: ["--preset", "superfast"])
        try await server.waitUntilListening()
        let item = try await test.uploadUntilTranscoded(clip, title: "HLG", to: server.url)
        #expect(item.segmentFormat == .ts)
        let folder = URL(fileURLWithPath: try #require(item.hlsPath))
        #expect(HLSConformance.check(masterURL: folder.appendingPathComponent("master.m3u8")).violations.map(\.description) == [])
        #expect(try await Self.variants("video_range", of: item, at: server) == ["180p": "SDR", "240p": "SDR", "240p-hdr": "HLG"])
        let media = "\(server.url)/api/media/\(item.id)"
        let segment = try await ExternalTool.require("curl", ["-sfI", "\(media)/stream/240p-hdr/segment_000.m4s"]).standardOutput
        #expect(segment.lowercased().contains("content-type: video/iso.segment"), "\(segment)")
        let sdrSegment = try await ExternalTool.require("curl", ["-sfI", "\(media)/stream/240p/segment_000.ts"]).standardOutput
        #expect(sdrSegment.lowercased().contains("content-type: video/mp2t"), "\(sdrSegment)")
        let dash = try await ExternalTool.run("curl", ["-s", "-w", "%{http_code}", "\(media)/manifest.mpd"])
        #expect(dash.standardOutput.hasSuffix("404") && dash.standardOutput.contains("DASH describes fMP4 titles only"), "\(dash.standardOutput)")

        let stream = "\(media)/stream"
        let programs = try await IndependentPlayers.programCount(master: stream)
        #expect(programs == 3)
        for program in 0..<programs {
            #expect(try await IndependentPlayers.decodeErrors(master: stream, program: program) == "", "program \(program)")
        }
        // A browser that cannot decode HEVC (Debian's Chromium) plays the master on its H.264 variants.
        try await LiveServerTests.expectChromiumPlays(stream, picture: true)
        #expect(try await server.stop(SIGTERM) == 0)
    }

    /// The string `key` of each of `item`'s variants in its media JSON, by variant name.
    static func variants(_ key: String, of item: MediaItem, at server: ServerProcess) async throws -> [String: String] {
        let media = try await ExternalTool.require("curl", ["-sf", "\(server.url)/api/media/\(item.id)"]).standardOutput
        let json = try #require(try JSONSerialization.jsonObject(with: Data(media.utf8)) as? [String: Any])
        let variants = try #require(json["variants"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: variants.compactMap { variant in
            (variant["name"] as? String).map { ($0, variant[key] as? String ?? "") }
        })
    }
}
