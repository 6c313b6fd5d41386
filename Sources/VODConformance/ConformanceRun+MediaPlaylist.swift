extension ConformanceRun {
    /// The rules every media playlist must meet, I-frame playlists included.
    mutating func checkMediaPlaylist(_ playlist: MediaPlaylist, _ file: String) {
        if playlist.playlistType != "VOD" {
            flag(.mediaPlaylistType, file, "#EXT-X-PLAYLIST-TYPE is \(playlist.playlistType ?? "missing"), not VOD")
        }
        if playlist.endListCount != 1 {
            flag(.mediaEndList, file, "\(playlist.endListCount) #EXT-X-ENDLIST tags, not one")
        }
        if playlist.segments.isEmpty {
            flag(.playlistSyntax, file, "the playlist has no segments")
        }
        checkTargetDuration(playlist, file)
        checkVersion(playlist, file)
    }

    private mutating func checkTargetDuration(_ playlist: MediaPlaylist, _ file: String) {
        guard let target = playlist.targetDuration else {
            flag(.mediaTargetDuration, file, "#EXT-X-TARGETDURATION is \(playlist.targetDurationText.map { "\"\($0)\", not an integer" } ?? "missing")")
            return
        }
        for segment in playlist.segments where (segment.duration + 0.5).rounded(.down) > Double(target) {
            flag(.mediaTargetDuration, file, "line \(segment.line): EXTINF \(segment.durationText) rounds to more than TARGETDURATION \(target)")
        }
        if target > options.targetDuration {
            flag(.mediaTargetLimit, file, "TARGETDURATION \(target) is above the project's \(options.targetDuration) s")
        }
    }

    private mutating func checkVersion(_ playlist: MediaPlaylist, _ file: String) {
        var needs: [(version: Int, reason: String)] = []
        if playlist.segments.contains(where: { $0.durationText.contains(".") }) { needs.append((3, "decimal EXTINF")) }
        if playlist.segments.contains(where: { $0.byteRange != nil }) { needs.append((4, "EXT-X-BYTERANGE")) }
        if playlist.iFramesOnly { needs.append((4, "EXT-X-I-FRAMES-ONLY")) }
        if playlist.mapURI != nil { needs.append((6, "EXT-X-MAP")) }
        let version = playlist.version ?? 1
        for need in needs where need.version > version {
            flag(.mediaVersion, file, "\(need.reason) needs EXT-X-VERSION \(need.version), the playlist has \(version)")
        }
    }
}
