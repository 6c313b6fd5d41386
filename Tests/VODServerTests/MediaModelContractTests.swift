import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
import VODEngine
import VODModel
import VODTestSupport
@testable import VODServer
@testable import VODService

/// The media JSON the server writes by hand is exactly the JSON of `VODModel.Media`, the type clients decode it
/// with: for a title in each state, the keys written at every level are the model's `CodingKeys`, no more and no
/// fewer, and the JSON decodes into the model and encodes back to the same JSON. Status events likewise.
@Suite(.tags(.ffmpeg), .needsExternalTools, .timeLimit(.minutes(10))) struct MediaModelContractTests {
    @Test func everyStateOfATitleIsTheSharedModel() async throws {
        let test = try TestLibrary()
        let titles = try await Titles(test)
        try await test.app().test(.router) { client in
            for item in [titles.pending, titles.playable, titles.ready, titles.failed] {
                let response = try await client.execute(uri: "/api/media/\(item.id)", method: .get)
                let media = try Self.decodedStrictly(Data(buffer: response.body))
                #expect(media.id == item.id && media.status == item.status)
            }
            let list = try await client.execute(uri: "/api/media", method: .get)
            let items = try #require(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [Any])
            let decoded = try items.map { try Self.decodedStrictly(JSONSerialization.data(withJSONObject: $0)) }
            #expect(decoded.map(\.status) == [.pending, .failed, .ready, .processing], "newest first")

            let ready = try #require(decoded.first { $0.status == .ready })
            #expect(ready.variants?.count == 1 && ready.captions.count == 1 && ready.tracks?.isEmpty == false)
            #expect(ready.tracks?.compactMap(\.loudness) == [Loudness(integrated: -23.5, range: 4.2, truePeak: -1.3)],
                    "the audio track's measured loudness")
            #expect(ready.tracks?.compactMap(\.closedCaptions) == [[ClosedCaptionListing(instreamID: "CC1", language: nil,
                                                                                          rendition: "Captions (CC1)", hasWebVTT: true)]],
                    "the video's caption channels")
            #expect(ready.variants?.first?.rateControl == "quality" && ready.variants?.first?.crf == 27.5, "what the rate control chose")
            #expect(ready.source != nil && ready.posterURL != nil && ready.thumbnails?.posters.count == 1)
            for media in decoded {
                let chapters = try #require(media.chapters, "every title lists its upload's chapters")
                #expect(chapters.map(\.start) == [0, 0.4] && chapters.first?.end == 0.4 && chapters.map(\.title) == ["Opening", nil])
            }
            let playable = try #require(decoded.first { $0.status == .processing })
            #expect(playable.isPlayable && playable.rungProgress?.map(\.rung) == ["180p"] && playable.rungProgress?.map(\.progress) == [0.4])
            #expect(decoded.first { $0.status == .failed }?.error == "Transcoding failed: no picture")
        }
        for item in [titles.pending, titles.ready] {
            let event = try await test.catalog.appendEvent(.ready, item: item)
            let message = try EventMessage(event, baseURL: "http://localhost", storedJSON: StoredJSONCache())
            let object = try #require(try JSONSerialization.jsonObject(with: Data(message.json.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Self.names(StatusEvent.CodingKeys.self))
            let decoded = try JSONDecoder().decode(StatusEvent.self, from: Data(message.json.utf8))
            #expect(decoded.id == event.id && decoded.type == .ready && decoded.mediaID == item.id)
            #expect(try Self.decodedStrictly(JSONSerialization.data(withJSONObject: try #require(object["data"]))) == decoded.media)
        }
    }

    /// The chapters of every title's clip, the second without a title.
    static let chapters = ChapterMarks([(0, 400, "Opening"), (400, 1000, "")])

    /// The titles of the test: one pending, one processing and playable, one ready with variants, tracks,
    /// a caption and a poster, one failed; each ingested from a real clip, so each has its source and tracks.
    struct Titles {
        let pending: MediaItem
        let playable: MediaItem
        let ready: MediaItem
        let failed: MediaItem

        init(_ test: TestLibrary) async throws {
            let plain = try await SyntheticClip(width: 320, height: 180, duration: 1).make(in: test.directory.url)
            let clip = try await MediaModelContractTests.chapters.add(to: plain, name: "chaptered.mp4")
            func ingest(_ title: String) async throws -> JobLease {
                _ = try await test.library.ingest(file: clip, originalName: "\(title).mp4", title: title, description: nil, mode: .copy)
                return try #require(try await test.catalog.claimNextJob(worker: "test", lease: .seconds(60)))
            }
            let playing = try await ingest("Playable")
            let rungs = try #require(ProgressWriter.rungsJSON([RungProgress(name: "180p", fraction: 0.4)]))
            _ = try await test.catalog.recordProgress(playing, fraction: 0.4, rungsJSON: rungs)
            _ = try await test.catalog.markPlayable(playing, hlsPath: test.library.outputFolder(for: playing.id))

            let finished = try await ingest("Ready")
            let stills = URL(fileURLWithPath: test.library.outputFolder(for: finished.id)).appendingPathComponent("stills")
            try FileManager.default.createDirectory(at: stills, withIntermediateDirectories: true)
            try Data(Self.stillsManifest.utf8).write(to: stills.appendingPathComponent("stills.json"))
            _ = try await test.catalog.markReady(finished, result: CompletedTranscode(
                hlsPath: stills.deletingLastPathComponent().path, duration: 1, variantsJSON: Self.variants,
                tracksJSON: try Self.measured(try await test.catalog.media(id: finished.id)?.tracksJSON)
            ))
            _ = try await test.catalog.insertCaption(NewCaption(mediaID: finished.id, language: "fr", name: "Français", isDefault: true))

            let failing = try await ingest("Failed")
            _ = try await test.catalog.markFailed(failing, reason: "Transcoding failed: no picture")
            let pending = try await test.library.ingest(file: clip, originalName: "p.mp4", title: "Pending", description: "waits", mode: .copy)

            func item(_ id: Int64) async throws -> MediaItem { try #require(try await test.catalog.media(id: id)) }
            self.pending = try await item(pending.id)
            playable = try await item(playing.id)
            ready = try await item(finished.id)
            failed = try await item(failing.id)
        }

        static let variants = """
            [{"averageBandwidth":180000,"bandwidth":200000,"codecs":"avc1.64000d,mp4a.40.2","crf":27.5,"frameRate":30,\
            "height":180,"name":"180p","playlist":"180p/index.m3u8","rateControl":"quality","segmentCount":1,"width":320}]
            """
        /// The stored `tracks` with every audio track's loudness and the video's caption channels, as a transcode
        /// reads them.
        static func measured(_ tracksJSON: String?) throws -> String {
            var tracks = try JSONDecoder().decode([TrackListing].self, from: Data(try #require(tracksJSON).utf8))
            for index in tracks.indices where tracks[index].type == "audio" {
                tracks[index].loudness = Loudness(integrated: -23.5, range: 4.2, truePeak: -1.3)
            }
            for index in tracks.indices where tracks[index].type == "video" {
                tracks[index].closedCaptions = [ClosedCaptionListing(instreamID: "CC1", language: nil, rendition: "Captions (CC1)",
                                                                     hasWebVTT: true)]
            }
            return String(decoding: try JSONEncoder().encode(tracks), as: UTF8.self)
        }

        static let stillsManifest = """
            {"posterTime":0.1,"posters":[{"file":"poster_320.jpg","height":180,"width":320}],\
            "storyboard":{"columns":1,"duration":1,"interval":2,"tileSize":{"height":90,"width":160},"tiles":1}}
            """
    }

    /// Decodes the media JSON `data` into `Media` after checking that its keys, and those of every object in it,
    /// are the model's; and checks that the model encodes it back to the same JSON.
    static func decodedStrictly(_ data: Data) throws -> Media {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == names(Media.CodingKeys.self))
        expectKeys(object["variants"], names(Media.Variant.CodingKeys.self))
        expectKeys(object["captions"], names(Media.Caption.CodingKeys.self))
        expectKeys(object["rung_progress"], names(Media.RungProgress.CodingKeys.self))
        expectKeys(object["source"], names(SourceSummary.CodingKeys.self))
        expectKeys(object["tracks"], names(TrackListing.CodingKeys.self))
        expectKeys((object["tracks"] as? [[String: Any]])?.compactMap { $0["loudness"] as? [String: Any] },
                   names(Loudness.CodingKeys.self))
        expectKeys((object["tracks"] as? [[String: Any]])?.flatMap { $0["closed_captions"] as? [[String: Any]] ?? [] },
                   names(ClosedCaptionListing.CodingKeys.self))
        expectKeys(object["thumbnails"], names(Media.Thumbnails.CodingKeys.self))
        expectKeys(object["chapters"], names(Chapter.CodingKeys.self))
        expectKeys((object["thumbnails"] as? [String: Any])?["posters"], names(Media.Thumbnails.Poster.CodingKeys.self))
        let media = try JSONDecoder().decode(Media.self, from: data)
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(media)) as? NSDictionary
        #expect(encoded == object as NSDictionary, "the model keeps every value")
        return media
    }

    /// Checks the keys of `value`, an object or an array of objects; `null` has none to check.
    static func expectKeys(_ value: Any?, _ names: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        let objects = (value as? [[String: Any]]) ?? (value as? [String: Any]).map { [$0] } ?? []
        for object in objects {
            #expect(Set(object.keys) == names, sourceLocation: sourceLocation)
        }
    }

    static func names<Key: CodingKey & CaseIterable>(_ keys: Key.Type) -> Set<String> {
        Set(Key.allCases.map(\.stringValue))
    }
}
