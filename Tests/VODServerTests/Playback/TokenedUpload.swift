import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import VODServer
import VODTestSupport

/// What the playback tests of real uploads share: a server that transcodes, with an API key and a playback key;
/// an upload through curl; and the stream URL a playback token comes with, as a player would be handed it.
enum TokenedUpload {
    /// A server on `test` with one worker, `PrivateTitleTests.apiKey` and `PlaybackTokenTests.key`.
    static func app(_ test: TestLibrary) -> some ApplicationProtocol {
        test.app {
            $0.workers = 1
            $0.pollInterval = 0.1
            $0.writeProtection = WriteProtection(keys: [PrivateTitleTests.apiKey])
            $0.playbackKey = PlaybackTokenTests.key
        }
    }

    /// Uploads `clip` to `server` as a multipart form with `fields` (such as `title=…`) and the API key; the media
    /// JSON it was answered.
    static func upload(_ clip: String, to server: String, fields: [String] = []) async throws -> [String: Any] {
        let form = fields.flatMap { ["-F", $0] }
        let upload = try await ExternalTool.require("curl", [
            "-sf", "-H", "X-API-Key: \(PrivateTitleTests.apiKey)", "-F", "file=@\(clip)",
        ] + form + ["\(server)/api/media"])
        return try #require(try JSONSerialization.jsonObject(with: Data(upload.standardOutput.utf8)) as? [String: Any])
    }

    /// A token for title `id` valid for 10 minutes, and its `stream_url` on `server`.
    static func stream(of id: Int64, client: some TestClientProtocol, server: String) async throws -> (token: String, url: String) {
        let issued = try await client.execute(uri: "/api/media/\(id)/playback-token", method: .post,
                                              headers: PrivateTitleTests.keyed, body: ByteBuffer(string: #"{"expires_in":600}"#))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: issued.body)) as? [String: String])
        let token = try #require(json["token"])
        let streamURLText = try #require(json["stream_url"])
        let streamURL = try #require(URL(string: streamURLText))
        let query = try #require(streamURL.query)
        return (token, "\(server)\(streamURL.path)?\(query)")
    }
}
