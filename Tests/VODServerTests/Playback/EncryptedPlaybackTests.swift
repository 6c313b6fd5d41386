import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import VODCatalog
@testable import VODServer
import VODService
import VODTestSupport

/// An upload to a library that encrypts, transcoded through the real queue: its segments are not media without
/// the key, openssl opens them with it, and ffmpeg and GStreamer play the title over HTTP with nothing but the
/// stream URL its playback token came with.
@Suite(.tags(.ffmpeg, .gstreamer, .processes), .needsExternalTools, .timeLimit(.minutes(10))) struct EncryptedPlaybackTests {
    @Test func anEncryptedUploadPlaysWithItsTokenAndIsNoiseWithoutIt() async throws {
        var encrypting = try TestLibrary()
        encrypting.library.segmentEncryption = .aes128
        let test = encrypting
        let clip = try await SyntheticClip(width: 320, height: 240, duration: 5).make(in: test.directory.url)
        try await TokenedUpload.app(test).test(.live) { client in
            let server = "http://127.0.0.1:\(try #require(client.port))"
            let created = try await TokenedUpload.upload(clip, to: server)
            let id = Int64(try #require(created["id"] as? Int))
            let key = try #require(try await test.catalog.encryptionKey(of: id), "the upload got a key of its own")
            #expect(key.count == 16)
            try await waitUntil("media \(id) is ready or failed") { [.ready, .failed].contains(try await test.status(of: id)) }
            let item = try #require(try await test.catalog.media(id: id))
            #expect(item.status == .ready, "\(item.error ?? "")")

            let playlist = try await client.execute(uri: "/api/media/\(id)/stream/240p/index.m3u8", method: .get)
            let (keyURI, ivs) = try EncryptedTitleTests.keys(in: playlist.body.text)
            #expect(keyURI == "../../key" && !ivs.isEmpty)
            let (name, iv) = try #require(ivs.min { $0.key < $1.key })
            let segment = try await client.execute(uri: "/api/media/\(id)/stream/240p/\(name)", method: .get)
            let directory = test.directory.url.path
            let fetched = "\(directory)/fetched.ts"
            try Data(buffer: segment.body).write(to: URL(fileURLWithPath: fetched))
            let probed = try await ExternalTool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", fetched])
            #expect(!probed.standardOutput.contains("h264"), "a segment's URL alone shows nothing: \(probed.standardOutput)")
            let opened = "\(directory)/opened.ts"
            _ = try await ExternalTool.require("openssl", [
                "enc", "-d", "-aes-128-cbc", "-K", Hex.string(key), "-iv", Hex.string(iv), "-in", fetched, "-out", opened,
            ])
            let folder = try #require(item.hlsPath)
            let onDisk = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/240p/\(name)"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: opened)) == onDisk, "openssl with the key and IV gives the segment back")

            let stream = try await TokenedUpload.stream(of: id, client: client, server: server).url
            #expect(try await IndependentPlayers.programCount(master: stream) == 2)
            let played = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", stream, "-map", "0", "-f", "null", "-"])
            #expect(played.status == 0 && played.standardError.isEmpty, "\(played.standardError)")
            let gstreamer = try await IndependentPlayers.gstreamerPlay(uri: stream)
            #expect(gstreamer.status == 0, "\(gstreamer.standardError)")
            let bare = try await ExternalTool.run("ffmpeg", ["-v", "error", "-i", "\(server)/api/media/\(id)/stream", "-map", "0", "-f", "null", "-"])
            #expect(bare.status != 0 || !bare.standardError.isEmpty, "without the token, the key is refused and nothing plays")
        }
    }
}
