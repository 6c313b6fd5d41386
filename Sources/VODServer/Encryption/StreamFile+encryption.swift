import Foundation
import NIOPosix

extension StreamFile {
    /// This file of a title served encrypted with `cipher`, at `components` below its stream (nil: the master as
    /// `stream` serves it; `master.m3u8` is the master too): the master without I-frame playlists, a media
    /// playlist with the key before each segment (its URI relative to the playlist, leading to
    /// `/api/media/:id/key`), a media segment encrypted (the same bytes each time, so its validators and caching
    /// hold), anything else as it is.
    func encrypted(with cipher: SegmentCipher, components: [Substring]?, segments: SegmentCache) async throws -> StreamFile {
        guard let components, components != [Substring(StreamFiles.masterFile)] else {
            return try replacingPlaylist(EncryptedPlaylist.master)
        }
        let name = components.last ?? ""
        switch content {
        case .memory where contentType == StreamFile.contentTypes["m3u8"]:
            let keyURI = String(repeating: "../", count: components.count) + "key"
            return try replacingPlaylist { EncryptedPlaylist.media($0, keyURI: keyURI) }
        case .disk(let path) where EncryptedPlaylist.isSegment(name):
            let held = try await segments.bytes(of: path, size: size)
            let ciphertext = try await NIOThreadPool.singleton.runIfActive {
                try cipher.encrypt(try held.map { Array(buffer: $0) } ?? Array(Data(contentsOf: URL(fileURLWithPath: path))), segment: name)
            }
            var file = try StreamFile(bytes: ciphertext, contentType: contentType, modified: modified, gzip: false)
            file.isLive = isLive
            return file
        default:
            return self
        }
    }

    /// When the file was last modified, as its `Last-Modified` says.
    private var modified: Date { HTTPDate.date(from: lastModified) ?? Date() }

    /// This playlist held in memory with its text changed by `change`.
    private func replacingPlaylist(_ change: (String) -> String) throws -> StreamFile {
        guard case .memory(let bytes, _) = content else { return self }
        var file = try StreamFile(playlist: Array(change(String(buffer: bytes)).utf8), contentType: contentType, modified: modified)
        file.isLive = isLive
        return file
    }
}
