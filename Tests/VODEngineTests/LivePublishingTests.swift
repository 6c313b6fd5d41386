import Foundation
import Synchronization
import Testing
import VODConformance
import VODEngine
import VODTestSupport

/// A title published as it grows (`Transcoder.transcode(…, onPublish:)`): EVENT playlists from the first segment
/// of every rendition of its smallest rung and its audio on, the other rungs joining the master later, each
/// publication a conformant title but for its ENDLIST, and VOD playlists at the end.
@Suite("Publishing as it grows", .tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10)))
struct LivePublishingTests {
    /// Copies the title's folder at each publication (the publisher waits for the copy, so it is exactly what a
    /// player could read then), and checks each copy as a finished title would be checked once the ENDLIST that
    /// a growing playlist leaves out is added.
    @Test(arguments: [LiveSource.muxedAudio, .twoAudioTracks])
    func everyPublicationIsAConformantTitleButForItsEnd(_ source: LiveSource) async throws {
        let directory = try TemporaryDirectory()
        let clip = try await source.make(in: directory.url)
        let output = directory.url.appendingPathComponent("out")
        let snapshots = directory.url.appendingPathComponent("snapshots")
        let published = Mutex<[Publication]>([])
        let options = TranscodeOptions(ladder: [
            Rung(name: "240p", width: 320, height: 240, bitrate: 300_000),
            Rung(name: "180p", width: 240, height: 180, bitrate: 200_000),
        ], preset: "superfast")
        let result = try await Transcoder(options: options).transcode(input: clip, outputDirectory: output.path, onPublish: { publication in
            let number = published.withLock { published in
                published.append(publication)
                return published.count
            }
            try? FileManager.default.copyItem(at: output, to: snapshots.appendingPathComponent("\(number)"))
        })
        let final = try String(contentsOf: output.appendingPathComponent("240p/index.m3u8"), encoding: .utf8)
            .components(separatedBy: "#EXTINF:").count - 1
        #expect(final == 7, "a 20 s title is five 2 s segments, one of 6 s and one of 4 s")
        let publications = published.withLock { $0 }
        #expect(publications.map(\.segments) == publications.map(\.segments).sorted()
                && Set(publications.map(\.segments)) == Set(1...final), "published segment by segment: \(publications.map(\.segments))")
        #expect(publications.allSatisfy { $0.rungs.contains("180p") }, "the smallest rung is listed from the first publication")
        #expect(Set(publications.last?.rungs ?? []) == ["240p", "180p"], "240p joins the master before the end")
        // 240p starts once the title is playable, so that 180p and the sound have the machine until then.
        let playable = try #require(publications.firstIndex { $0.makesPlayable }, "the title said it was playable")
        for number in 1...(playable + 1) {
            let folder = snapshots.appendingPathComponent("\(number)/240p").path
            let written = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            #expect(!written.contains { $0.hasPrefix("segment_") }, "publication \(number): 240p wrote \(written)")
        }
        for (number, publication) in zip(1..., publications) {
            let segments = publication.segments
            let snapshot = snapshots.appendingPathComponent("\(number)")
            #expect(Set(try Self.rungs(namedIn: snapshot)) == Set(publication.rungs), "publication \(number): \(publication.rungs)")
            let playlists = try Self.mediaPlaylists(in: snapshot)
            #expect(!playlists.isEmpty)
            // The segments every rendition lists: a finished title lists the same in each.
            let listed = try playlists.filter { $0.lastPathComponent == "index.m3u8" }.map { Set(try SplitTitleTests.segments($0).map(\.name)) }
            let common = listed.dropFirst().reduce(listed.first ?? []) { $0.intersection($1) }
            for playlist in playlists {
                let text = try String(contentsOf: playlist, encoding: .utf8)
                #expect(text.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && !text.contains("#EXT-X-ENDLIST"), "\(playlist.path)")
                let entries = text.components(separatedBy: "#EXTINF:").count - 1
                if playlist.lastPathComponent == "iframes.m3u8" {
                    let listed = try Self.duration(of: playlist.deletingLastPathComponent().appendingPathComponent("index.m3u8"))
                    #expect(entries == Int((listed / 2).rounded(.up)), "an I-frame every 2 s of the \(segments) segments listed")
                } else if playlist.path.contains("/240p/") {
                    #expect((1...segments).contains(entries), "the later rung lists no more than the first: \(playlist.path)")
                } else {
                    #expect(entries == segments, "\(playlist.path)")
                }
                try Self.keeping(common, of: text).replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:EVENT", with: "#EXT-X-PLAYLIST-TYPE:VOD")
                    .appending("#EXT-X-ENDLIST\n").write(to: playlist, atomically: true, encoding: .utf8)
            }
            let report = HLSConformance.check(masterURL: snapshot.appendingPathComponent("master.m3u8"))
            #expect(report.violations.map(\.description) == [], "publication \(number)")
        }
        #expect(try String(contentsOf: output.appendingPathComponent("240p/index.m3u8"), encoding: .utf8).hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(HLSConformance.check(masterURL: URL(fileURLWithPath: result.outputDirectory).appendingPathComponent("master.m3u8")).violations.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") } == [],
                "no temporary playlist is left")
    }

    /// A run published as it grows and then cancelled removes what it had published.
    @Test func aCancelledRunRemovesWhatItPublished() async throws {
        let directory = try TemporaryDirectory()
        let clip = try await SyntheticClip(width: 1280, height: 720, duration: 30).make(in: directory.url, name: "long")
        let output = directory.url.appendingPathComponent("out").path
        let published = OnceFlag()
        let task = Task {
            try await Transcoder().transcode(input: clip, outputDirectory: output, onPublish: { _ in _ = published.claim() })
        }
        while !published.isClaimed { try await Task.sleep(for: .milliseconds(20)) }
        #expect(FileManager.default.fileExists(atPath: output + "/master.m3u8"), "the title was published")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try directory.entries() == ["long.mp4"], "nothing published remains")
    }

    /// The playlist `text` with only the entries (each from its `#EXTINF` to its URI) whose segment is one of
    /// `names`.
    static func keeping(_ names: Set<String>, of text: String) -> String {
        var kept: [String] = []
        var entry: [String] = []
        for line in text.components(separatedBy: "\n") {
            guard line.hasPrefix("#EXTINF:") || !entry.isEmpty else {
                kept.append(line)
                continue
            }
            entry.append(line)
            guard !line.hasPrefix("#") else { continue }
            if names.contains(line) { kept += entry }
            entry = []
        }
        return kept.joined(separator: "\n")
    }

    /// The rungs the master in `folder` names as variants.
    static func rungs(namedIn folder: URL) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("master.m3u8"), encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && $0.hasSuffix("/index.m3u8") }
            .map { String($0.dropLast("/index.m3u8".count)) }
    }

    /// The sum of a media playlist's EXTINF durations.
    static func duration(of playlist: URL) throws -> Double {
        try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",")[0]) }
            .reduce(0, +)
    }

    static func mediaPlaylists(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().flatMap { entry -> [URL] in
            let sub = folder.appendingPathComponent(entry)
            guard (try? sub.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true else { return [] }
            return try FileManager.default.contentsOfDirectory(atPath: sub.path).filter { $0.hasSuffix(".m3u8") }.sorted()
                .map { sub.appendingPathComponent($0) }
        }
    }
}

/// The sources published as they grow: one audio track muxed into every rung, or two as audio renditions.
enum LiveSource: String, CustomStringConvertible, Sendable {
    case muxedAudio
    case twoAudioTracks

    var description: String { rawValue }

    func make(in directory: URL) async throws -> String {
        switch self {
        case .muxedAudio:
            try await SyntheticClip(width: 320, height: 240, duration: 20).make(in: directory, name: "muxed")
        case .twoAudioTracks:
            try await SyntheticClip.multiTrack([
                ToneTrack(frequency: 400, metadata: ["language=eng"], disposition: "default"),
                ToneTrack(frequency: 600, metadata: ["language=fra"]),
            ], duration: 20, in: directory)
        }
    }
}
