import Foundation
import NIOPosix
import VODEngine

extension StreamFile {
    /// This file as a request with playback `token` gets it: a playlist, or the storyboard's WebVTT, with the
    /// token on each URI (`PlaybackURIs`), made for this request and never cached; any other file as it is.
    func carrying(token: String) async throws -> StreamFile {
        let text: String
        let isPlaylist = contentType == StreamFile.contentTypes["m3u8"]
        switch content {
        case .memory(let bytes, _) where isPlaylist:
            text = PlaybackURIs.playlist(String(buffer: bytes), token: token)
        case .memory(let bytes, _) where contentType == StreamFile.contentTypes["mpd"]:
            text = PlaybackURIs.dash(String(buffer: bytes), token: token)
        case .disk(let path) where path.hasSuffix("/\(StillsManifest.folder)/\(StillsManifest.storyboardFile)"):
            let data = try await NIOThreadPool.singleton.runIfActive { FileManager.default.contents(atPath: path) ?? Data() }
            text = PlaybackURIs.storyboard(String(decoding: data, as: UTF8.self), token: token)
        default:
            return self
        }
        var file = try StreamFile(bytes: Array(text.utf8), contentType: contentType, modified: Date(), gzip: false)
        file.isLive = isLive
        return file
    }
}
