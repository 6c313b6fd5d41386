import VODService

/// The playlists of a title served encrypted (`SegmentEncryption.aes128`): each media segment is preceded by
/// its `EXT-X-KEY` (method, key URI, the segment's IV), init segments (`EXT-X-MAP`, before any key) and WebVTT
/// stay in the clear, and the master leaves out the I-frame playlists, whose byte ranges cannot be decrypted
/// apart from the whole segment they lie in.
enum EncryptedPlaylist {
    /// The extensions of the media segments that are encrypted.
    static let segmentExtensions: Set<String> = ["ts", "m4s", "aac"]

    /// Whether the file named `name` (its last path component, without query) is an encrypted media segment.
    static func isSegment(_ name: some StringProtocol) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return segmentExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The master `playlist` without its `EXT-X-I-FRAME-STREAM-INF` lines.
    static func master(_ playlist: String) -> String {
        playlist.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF") }
            .joined(separator: "\n")
    }

    /// The media `playlist` with an `EXT-X-KEY` naming `keyURI` before each media segment.
    static func media(_ playlist: String, keyURI: String) -> String {
        var lines: [Substring] = []
        for line in playlist.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix("#"), let name = segmentName(line), isSegment(name) {
                let iv = Hex.string(SegmentCipher.iv(ofSegment: name))
                lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"\(keyURI)\",IV=0x\(iv)")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The last path component of a playlist's URI line, without query or fragment; nil for a blank line.
    static func segmentName(_ uri: Substring) -> Substring? {
        let reference = uri.split(whereSeparator: { $0 == "?" || $0 == "#" }).first ?? ""
        guard let name = reference.split(separator: "/").last, !name.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return name
    }
}
