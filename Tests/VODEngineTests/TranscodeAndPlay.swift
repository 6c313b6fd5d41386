import Foundation
import Testing
import VODConformance
import VODEngine
import VODTestSupport

/// Transcodes `clip` into `directory/out`, checks every rule of the shared HLS rules document, decodes every
/// variant with ffmpeg and plays the master with GStreamer, as independent players.
///
/// `hdr` is `.sdr` for the tests of an HDR source's tone-mapped ladder: GStreamer's HLS demuxer cannot switch
/// between the H.264 and HEVC variants of one master (its caps are not renegotiated), so the HDR rung's own tests
/// (`HDRLadderTests`) decode every variant with ffmpeg and play the HDR rung's playlist with GStreamer instead.
func transcodeAndPlay(
    _ clip: String, in directory: TemporaryDirectory, ladder: [Rung] = Rung.defaultLadder, hdr: HDRPolicy = .keep
) async throws -> TranscodeResult {
    let result = try await Transcoder(options: TranscodeOptions(ladder: ladder, preset: "superfast", hdr: hdr))
        .transcode(input: clip, outputDirectory: directory.url.appendingPathComponent("out").path)
    let report = HLSConformance.check(masterURL: result.masterPlaylist)
    #expect(report.violations.map(\.description) == [], "every rule in the shared HLS rules document holds")
    for program in result.variants.indices {
        #expect(try await IndependentPlayers.decodeErrors(master: result.masterPlaylist.path, program: program) == "")
    }
    let play = try await IndependentPlayers.gstreamerPlay(uri: result.masterPlaylist.absoluteString)
    #expect(play.status == 0, "GStreamer played the master: \(play.standardError)")
    return result
}

extension TranscodeResult {
    /// The path of segment `index` of the rung `name`.
    func segment(_ name: String, _ index: Int = 0) -> String {
        masterPlaylist.deletingLastPathComponent()
            .appendingPathComponent("\(name)/segment_\(String(format: "%03d", index)).ts").path
    }

    /// The sum of the EXTINF durations of the first rung's media playlist.
    func playlistDuration() throws -> Double {
        let text = try String(contentsOf: masterPlaylist.deletingLastPathComponent()
            .appendingPathComponent(variants[0].playlist), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",")[0]) }.reduce(0, +)
    }
}
